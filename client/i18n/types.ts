/** The shape of a catalog with its literal strings widened, so en.ts must match sv.ts key for key. */
export type Widen<T> = T extends string ? string : T extends (...args: infer A) => string ? (...args: A) => string : { [K in keyof T]: Widen<T[K]> };
