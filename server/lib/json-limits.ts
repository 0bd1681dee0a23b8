/**
 * Bounds on JSON request bodies. A 0.5–1 MB deeply nested body cost 0.7–1.6 s of parsing on
 * the event loop; no input of the site comes near these.
 *
 * JSON_BODY_LIMIT: every REST route's JSON body (the largest, a contact message of 5,000
 * characters, is under 20 KB; a business comes as multipart). LARGE_JSON_BODY_LIMIT: every tRPC
 * request (one route; a business with 50 branches, batches). JSON_MAX_DEPTH: arrays and objects
 * nested in each other (the deepest input, a tRPC batch of a business with branches, has 5).
 */
export const JSON_BODY_LIMIT = 32 * 1024;
export const LARGE_JSON_BODY_LIMIT = 128 * 1024;
export const JSON_MAX_DEPTH = 20;

/** True when `text` nests arrays/objects deeper than `max` (brackets inside strings do not count). One pass, no parse. */
export function jsonTooDeep(text: string, max = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
