/** Server messages of this area: key → English text. */
export const businessMessages = {} as const;
