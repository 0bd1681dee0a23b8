import type { MessageKey } from '../schemas/messages';
import { sv } from './sv';

/**
 * Whether a string is a server message key. The Swedish catalog has a text for every key (its
 * type demands one), so the check needs no English texts: those stay out of the first page's
 * scripts (shared/schemas/messages.ts is loaded with the English catalog or a form that needs it).
 */
export function isMessageKey(value: string): value is MessageKey {
  return Object.prototype.hasOwnProperty.call(sv.messages, value);
}
