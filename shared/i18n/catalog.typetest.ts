/**
 * Compile-time checks (run by `npm run typecheck`): a catalog that lacks a key, or has a key
 * of the wrong kind, is not a catalog. If Widen ever stopped catching these, the
 * @ts-expect-error lines would themselves fail the type check.
 */
import type { Catalog } from './types';
import { en } from './en';

const { loading: _dropped, ...commonWithoutLoading } = en.common;

// @ts-expect-error a missing key fails the type check
export const missingKey: Catalog = { ...en, common: commonWithoutLoading };

// @ts-expect-error a function where a string belongs fails the type check
export const wrongKind: Catalog = { ...en, common: { ...en.common, loading: () => 'x' } };
