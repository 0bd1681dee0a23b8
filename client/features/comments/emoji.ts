import { EMOJI_RATES } from '../../../shared/schemas/comment-constants';

/** The emoji scale of comments and replies, 1 (worst) to 5 (best). All five are in DejaVu Sans, so a machine without a colour emoji font still draws them (🙂 is not). */
export const EMOJI: Record<(typeof EMOJI_RATES)[number], string> = { 1: '😡', 2: '😕', 3: '😐', 4: '😊', 5: '😍' };
export { EMOJI_RATES };

/** The first `max` characters (whole emoji, not UTF-16 halves) and '...' when there was more. */
export function excerpt(text: string, max: number): string {
  const chars = Array.from(text.trim());
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}...` : chars.join('');
}

/** "västerås c" → "Västerås c": the description shows the location with its first letter capitalised. */
export function capitalised(text: string): string {
  const [first = '', ...rest] = Array.from(text);
  return first.toLocaleUpperCase('sv-SE') + rest.join('');
}
