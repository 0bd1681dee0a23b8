import type { ReportReason } from '../../../shared/schemas/moderation';

/**
 * A removal's reason as stored (shared/schemas/moderation.ts authorReasonOf): report reason keys
 * joined by ", " (one chosen by the moderator, or the reports' own), then optionally ": " and the
 * moderator's words to the author; the moderation log may add " — " and the moderator's note.
 * Removals before issue 27 stored free text. The leading keys are shown in the reader's language;
 * everything after them, and free text, as written.
 */
export function reasonText(reason: string, reasons: Record<ReportReason, string>): string {
  const head = /^[a-zA-Z]+(?:, [a-zA-Z]+)*(?=$|: | — )/.exec(reason)?.[0];
  if (!head) return reason;
  const keys = head.split(', ');
  if (!keys.every((k) => Object.hasOwn(reasons, k))) return reason;
  return keys.map((k) => reasons[k as ReportReason]).join(', ') + reason.slice(head.length);
}
