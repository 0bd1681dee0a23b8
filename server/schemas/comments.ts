/** Server messages of this area: key → English text. */
export const commentMessages = {} as const;
