import { useQuery } from '@tanstack/react-query';
import { useViewer } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';

/** How often an open page asks again for the bell's count. */
const UNREAD_POLL_MS = 60_000;

/** The signed-in user's unread count (0 for a visitor), refreshed each minute and on focus. */
export function useUnreadCount(): number {
  const trpc = useTRPC();
  const me = useViewer();
  const query = useQuery({ ...trpc.notifications.unread.queryOptions(), enabled: !!me, refetchInterval: UNREAD_POLL_MS });
  return me ? (query.data ?? 0) : 0;
}
