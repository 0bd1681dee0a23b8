import { AppError } from '../../lib/errors';

/**
 * Keyset cursors: the sort key of the last row a page showed, so a page never shifts when new
 * rows arrive. `key` breaks ties of equal timestamps: the comment id on the feed (its index is
 * (created_at, id)), the rowid where an index ends in created_at (SQLite appends the rowid).
 */
export type Cursor<K extends string | number> = { t: number; k: K };

export function encodeCursor(t: number, k: string | number): string {
  return Buffer.from(JSON.stringify([t, k])).toString('base64url');
}

export function decodeCursor(value: string | undefined, keyType: 'string'): Cursor<string> | null;
export function decodeCursor(value: string | undefined, keyType: 'number'): Cursor<number> | null;
export function decodeCursor(value: string | undefined, keyType: 'string' | 'number'): Cursor<string | number> | null {
  if (value === undefined || value === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('BAD_INPUT', 'cursorInvalid');
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw new AppError('BAD_INPUT', 'cursorInvalid');
  const [t, k] = parsed as [unknown, unknown];
  if (typeof t !== 'number' || !Number.isSafeInteger(t) || typeof k !== keyType) throw new AppError('BAD_INPUT', 'cursorInvalid');
  if (typeof k === 'number' && !Number.isSafeInteger(k)) throw new AppError('BAD_INPUT', 'cursorInvalid');
  return { t, k: k as string | number };
}

/**
 * Splits `limit + 1` fetched rows into the page and the cursor of the next one (null on the
 * last page), so no extra count query is needed.
 */
export function pageOf<R, T>(rows: R[], limit: number, keyOf: (row: R) => [number, string | number], map: (row: R) => T) {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const last = shown[shown.length - 1];
  return {
    items: shown.map(map),
    nextCursor: more && last ? encodeCursor(...keyOf(last)) : null,
  };
}
