/** A whole number as the documented forms write it: decimal digits, no leading zero. */
const INTEGER = /^(?:0|[1-9]\d*)$/;
/** The same with an optional fraction after a point: `4`, `3.5`. */
const DECIMAL = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * A multipart field as a number, accepting only the documented form: no sign, spaces,
 * exponent, hex or other spellings Number() would take (`0x4`, `1e0`, ` 4 `). Anything else
 * comes back as the text itself, which the number schemas then refuse.
 */
export function formNumber(value: string, form: 'integer' | 'decimal'): number | string {
  return (form === 'integer' ? INTEGER : DECIMAL).test(value) ? Number(value) : value;
}
