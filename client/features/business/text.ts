/** The first `n` characters (whole code points, so no emoji is split), plus '...' when cut. */
export function cut(text: string, n: number): string {
  const chars = [...text];
  return chars.length > n ? `${chars.slice(0, n).join('').trimEnd()}...` : text;
}
