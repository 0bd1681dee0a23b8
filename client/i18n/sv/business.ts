import type { businessMessages } from '../../../server/schemas/business';

export const business = {} as const;

export const businessMessagesSv: Record<keyof typeof businessMessages, string> = {};
