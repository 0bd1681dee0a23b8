import { randomBytes } from 'node:crypto';

const ID_BYTES = 12;
/** Random bytes for this many ids are fetched at once: one call into the CSPRNG per 340 ids. */
const POOL_IDS = 340;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * A random, unguessable id (96 bits, URL-safe). The bytes come from the operating system's CSPRNG
 * in blocks, as crypto.randomUUID() does: a write that makes a notification or a session asks for
 * one, and a call into the CSPRNG per id cost ~2 % of a reaction's CPU time.
 */
export const newId = (): string => {
  if (offset + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * POOL_IDS);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + ID_BYTES);
  offset += ID_BYTES;
  return id;
};
