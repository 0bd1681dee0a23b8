import type { commentMessages } from '../../../server/schemas/comments';

export const comments = {} as const;

export const commentsMessagesSv: Record<keyof typeof commentMessages, string> = {};
