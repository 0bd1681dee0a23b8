import type { sv } from './sv';

/** The shape of a catalog with its literal strings widened, so en.ts must match sv.ts key for key. */
export type Widen<T> = T extends string ? string : T extends (...args: infer A) => string ? (...args: A) => string : { [K in keyof T]: Widen<T[K]> };

/** A whole catalog: what sv.ts has, with its strings widened; en.ts must be one. */
export type Catalog = Widen<typeof sv>;
