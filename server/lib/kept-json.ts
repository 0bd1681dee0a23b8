import type { Db } from '../../db/client';
import { scopedStamp, type StampScope } from './data-stamp';

/**
 * JSON written once for objects that are kept in memory and handed out again and again (the
 * directory's cards): a title search that answers with seventy cards joined their kept texts
 * instead of stringifying every card on every request, which was a sixth of the request's CPU.
 * A kept object is frozen, so its text can never go stale. The text is written the first time
 * the object is sent (null until then): at 10,000 businesses writing every card's text up front
 * was 60–170 ms of each directory rebuild and ~5 MB of strings most of which no reply used.
 */
const texts = new WeakMap<object, string | null>();

/** Freezes `value` (a flat object or array of plain data); its JSON text is kept once written. */
export function keepJson<T extends object>(value: T): Readonly<T> {
  for (const inner of Object.values(value)) if (inner !== null && typeof inner === 'object') Object.freeze(inner);
  Object.freeze(value);
  texts.set(value, null);
  return value;
}

/** The kept text of a kept object (written now if it is the first time), undefined for any other. */
function keptText(item: object): string | undefined {
  const kept = texts.get(item);
  if (kept !== null) return kept;
  const text = JSON.stringify(item);
  texts.set(item, text);
  return text;
}

/**
 * `JSON.stringify(value)`, made of the kept texts of its items when `value` is an array: an item
 * that has no kept text (a signed-in user's favourite is a copy of its card) is stringified.
 */
export function jsonOf(value: unknown): string | undefined {
  if (!Array.isArray(value)) return JSON.stringify(value);
  const items = new Array<string>(value.length);
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const kept = item !== null && typeof item === 'object' ? keptText(item) : undefined;
    // Inside an array JSON.stringify writes null for what has no JSON (undefined, functions).
    items[i] = kept ?? JSON.stringify(item) ?? 'null';
  }
  return `[${items.join(',')}]`;
}

/** How many kept texts per kind at most: 2,000 business documents are about 5 MB. */
export const KEPT_TEXTS_MAX = 2000;

type KeptTexts = { stamp: string; kinds: Map<string, Map<string, Buffer>> };
/** Per database and scope: a kind's texts go with the stamp of the scope they were kept under. */
const keptTexts = new WeakMap<Db, Partial<Record<StampScope, KeptTexts>>>();

const COMMA = Buffer.from(',');
const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');

/**
 * The JSON array of these items (by id, in this order), each item's text written once and kept
 * as UTF-8 bytes while the data of `scope` is unchanged (`scopedStamp`; `all` unless the items
 * are made of what the `businesses` scope covers): a REST search page joins the kept
 * documents of the businesses it finds instead of reading and serialising them again, and the
 * join is a copy of bytes. `write` gets the ids not kept yet and gives their texts (an id it
 * leaves out, an item gone since, is left out of the answer). At most KEPT_TEXTS_MAX per `kind`,
 * the oldest going first; a write that moves the scope's stamp drops them all.
 */
export function keptArrayOf(
  db: Db,
  kind: string,
  ids: readonly string[],
  write: (missing: string[]) => Map<string, string>,
  scope: StampScope = 'all',
): Buffer {
  const stamp = scopedStamp(db, scope);
  let scopes = keptTexts.get(db);
  if (!scopes) {
    scopes = {};
    keptTexts.set(db, scopes);
  }
  let kept = scopes[scope];
  if (kept?.stamp !== stamp) {
    kept = { stamp, kinds: new Map() };
    scopes[scope] = kept;
  }
  let texts = kept.kinds.get(kind);
  if (!texts) {
    texts = new Map();
    kept.kinds.set(kind, texts);
  }
  const missing = ids.filter((id) => !texts.has(id));
  const written = new Map<string, Buffer>();
  if (missing.length > 0) for (const [id, text] of write(missing)) written.set(id, Buffer.from(text));
  const parts: Buffer[] = [OPEN];
  for (const id of ids) {
    const text = texts.get(id) ?? written.get(id);
    if (text === undefined) continue;
    if (parts.length > 1) parts.push(COMMA);
    parts.push(text);
  }
  parts.push(CLOSE);
  for (const [id, text] of written) texts.set(id, text);
  for (const [oldest] of texts) {
    if (texts.size <= KEPT_TEXTS_MAX) break;
    texts.delete(oldest);
  }
  return Buffer.concat(parts);
}
