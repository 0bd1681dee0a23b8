import { randomBytes } from 'node:crypto';

/** A random, unguessable id (96 bits, URL-safe). */
export const newId = (): string => randomBytes(12).toString('base64url');
