import { markReadInputSchema, notificationsInputSchema } from '../../schemas/notifications';
import { listNotifications, markNotificationsRead, unreadCount } from '../../services/notifications';
import { router, signedInProcedure } from '../init';

export const notificationsRouter = router({
  list: signedInProcedure.input(notificationsInputSchema.optional()).query(({ ctx, input }) => listNotifications(ctx.deps, ctx.actor, input ?? {})),
  /** The bell's count alone, cheap enough to ask for on every page. */
  unread: signedInProcedure.query(({ ctx }) => unreadCount(ctx.deps, ctx.actor)),
  markRead: signedInProcedure.input(markReadInputSchema).mutation(({ ctx, input }) => markNotificationsRead(ctx.deps, ctx.actor, input)),
});
