import { commonMessages } from './common-messages';
import { accountMessages } from './account-messages';
import { businessMessages } from './business-messages';
import { businessFactsMessages } from './business-facts-messages';
import { commentMessages } from './comment-messages';
import { moderationMessages } from './moderation-messages';
import { suggestionMessages } from './suggestion-messages';
import { ownerMessages } from './owner-messages';

/**
 * Every message the server can send, by key. The English text is what REST clients read; the
 * client shows the key's translation from its catalog (a missing Swedish text fails the type
 * check). Zod schemas in this folder use these keys as their messages.
 */
export const messages = {
  ...commonMessages,
  ...accountMessages,
  ...businessMessages,
  ...businessFactsMessages,
  ...commentMessages,
  ...moderationMessages,
  ...suggestionMessages,
  ...ownerMessages,
} as const;

export type MessageKey = keyof typeof messages;

export function isMessageKey(value: string): value is MessageKey {
  return Object.prototype.hasOwnProperty.call(messages, value);
}

/** English text for a key, or the text itself when it is not a key (zod's own defaults). */
export function messageText(keyOrText: string): string {
  return isMessageKey(keyOrText) ? messages[keyOrText] : keyOrText;
}
