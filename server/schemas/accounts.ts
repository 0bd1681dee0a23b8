/** Server messages of this area: key → English text. */
export const accountMessages = {} as const;
