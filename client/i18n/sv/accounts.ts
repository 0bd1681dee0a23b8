import type { accountMessages } from '../../../server/schemas/accounts';

export const accounts = {} as const;

export const accountsMessagesSv: Record<keyof typeof accountMessages, string> = {};
