import type { Widen } from '../types';
import type { pages as sv } from '../sv/pages';

export const pages: Widen<typeof sv> = {};
