import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useI18n } from '../../i18n';
import { useViewer } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { badgeText } from '../../components/layout/nav-rules';
import styles from '../../components/layout/nav-bar.module.css';

/** How often an open page asks again for the waiting count. */
const WAITING_POLL_MS = 60_000;

/** Posts waiting in the open report queue, for moderators and admins (0 for anyone else). */
export function useWaitingReports(): { show: boolean; waiting: number } {
  const trpc = useTRPC();
  const me = useViewer();
  const show = !!me && !me.isBanned && (me.isAdmin || me.isModerator);
  const query = useQuery({ ...trpc.moderation.waiting.queryOptions(), enabled: show, refetchInterval: WAITING_POLL_MS });
  return { show, waiting: show ? (query.data?.waiting ?? 0) : 0 };
}

/** The header's link to the report queue with the waiting count as a badge (issue 29, item 13). */
export function ModerationLink({ className, badgeClassName, current }: { className?: string; badgeClassName?: string; current?: boolean }) {
  const { t } = useI18n();
  const { show, waiting } = useWaitingReports();
  if (!show) return null;
  return (
    <Link href="/mod-queue" className={className} aria-current={current ? 'page' : undefined} data-testid="moderation-link">
      {t.moderation.menu.queue}
      {/* The name is the visible text and then the hidden words (WCAG 2.5.3): "Rapporter 2 inlägg väntar". */}
      {waiting > 0 ? (
        <>
          <span className={badgeClassName ?? styles.linkBadge}> {badgeText(waiting)}</span>
          <span className="visually-hidden"> {t.moderation.menu.waiting(waiting)}</span>
        </>
      ) : null}
    </Link>
  );
}
