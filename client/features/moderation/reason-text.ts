import type { ReportReason } from '../../../shared/schemas/moderation';

/**
 * A removal's reason as stored (shared/schemas/moderation.ts authorReasonOf): a report reason's
 * key, then ": " and the moderator's words to the author; or the reports' reason keys joined by
 * ", "; or (removals before issue 27) free text. Shown in the reader's language.
 */
export function reasonText(reason: string, reasons: Record<ReportReason, string>): string {
  const colon = reason.indexOf(': ');
  const head = colon < 0 ? reason : reason.slice(0, colon);
  if (colon >= 0 && head in reasons) return `${reasons[head as ReportReason]}: ${reason.slice(colon + 2)}`;
  return reason
    .split(', ')
    .map((r) => (r in reasons ? reasons[r as ReportReason] : r))
    .join(', ');
}
