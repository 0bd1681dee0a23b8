import { useTRPC } from '../../lib/trpc';
import { refreshingMutation, useInvalidate } from '../../lib/refresh';

function useRefreshNotifications() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate([trpc.notifications.pathFilter()]);
}

/** Marks notifications read (some, or all): the list and the bell's count follow. */
export const useMarkNotificationsRead = refreshingMutation((trpc) => trpc.notifications.markRead, useRefreshNotifications);

/** Changes the e-mail choices on the profile. */
export const useSetNotificationSettings = refreshingMutation((trpc) => trpc.notifications.setSettings, useRefreshNotifications);
