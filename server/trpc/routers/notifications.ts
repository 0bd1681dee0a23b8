import { markReadInputSchema, notificationSettingsInputSchema, notificationsInputSchema } from '../../../shared/schemas/notifications';
import { getNotificationSettings, setNotificationSettings } from '../../services/notifications/notification-mails';
import { listNotifications, markNotificationsRead, unreadCount } from '../../services/notifications/notifications';
import { router, signedInProcedure } from '../init';

export const notificationsRouter = router({
  list: signedInProcedure.input(notificationsInputSchema.optional()).query(({ ctx, input }) => listNotifications(ctx.deps, ctx.actor, input ?? {})),
  /** The bell's count alone, cheap enough to ask for on every page. */
  unread: signedInProcedure.query(({ ctx }) => unreadCount(ctx.deps, ctx.actor)),
  settings: signedInProcedure.query(({ ctx }) => getNotificationSettings(ctx.deps, ctx.actor)),
  setSettings: signedInProcedure.input(notificationSettingsInputSchema).mutation(({ ctx, input }) => setNotificationSettings(ctx.deps, ctx.actor, input)),
  markRead: signedInProcedure.input(markReadInputSchema).mutation(({ ctx, input }) => markNotificationsRead(ctx.deps, ctx.actor, input)),
});
