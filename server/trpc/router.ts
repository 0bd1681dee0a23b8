import { router } from './init';
import { usersRouter } from './routers/users';
import { businessRouter } from './routers/business';
import { commentsRouter } from './routers/comments';
import { homeRouter } from './routers/home';
import { moderationRouter } from './routers/moderation';
import { siteRouter } from './routers/site';
import { notificationsRouter } from './routers/notifications';
import { suggestionsRouter } from './routers/suggestions';
import { ownersRouter } from './routers/owners';

export const appRouter = router({
  users: usersRouter,
  business: businessRouter,
  comments: commentsRouter,
  site: siteRouter,
  home: homeRouter,
  moderation: moderationRouter,
  notifications: notificationsRouter,
  suggestions: suggestionsRouter,
  owners: ownersRouter,
});

export type AppRouter = typeof appRouter;
