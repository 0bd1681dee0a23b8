import type { ReportReason } from '../../../server/schemas/moderation';

/**
 * A moderator's reason as stored: their note, or (without one) the reports' reason keys joined by
 * ", ", shown in the reader's language.
 */
export function reasonText(reason: string, reasons: Record<ReportReason, string>): string {
  return reason
    .split(', ')
    .map((r) => (r in reasons ? reasons[r as ReportReason] : r))
    .join(', ');
}
