/**
 * Text from outside (a backup's manifest, names from its database) as one line that is safe to
 * print on a terminal: control characters (escape codes, carriage returns, line breaks), the
 * bidirectional controls that reorder what follows, and other invisible format characters are
 * shown as \u{…} escapes, and a backslash as two, so nothing can fake a line or a colour.
 */
export function printable(text: string): string {
  return text.replace(/\\|[\p{Cc}\p{Cf}\u2028\u2029]/gu, (c) => (c === '\\' ? '\\\\' : `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`));
}
