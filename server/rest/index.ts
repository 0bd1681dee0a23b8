import type { FastifyInstance } from 'fastify';
import type { Deps } from '../services/deps';
import { businessRoutes } from './business';
import { businessSuggestionRoutes } from './business-suggestions';
import { commentRoutes } from './comment';
import { favoriteRoutes } from './favorites';
import { imageRoutes } from './images';
import { moderationRoutes, ownerReplyReportRoutes, reportItemRoutes } from './reports';
import { notificationRoutes, notificationSettingsRoutes } from './notifications';
import { ownerRoutes } from './owners';
import { siteRoutes } from './site';
import { subCommentRoutes } from './sub-comment';
import { userRoutes } from './users';

/** Every REST route under /api, one plugin per resource of the documented API. */
export function restRoutes(deps: Deps) {
  return async function rest(app: FastifyInstance) {
    await app.register(userRoutes(deps), { prefix: '/users' });
    await app.register(favoriteRoutes(deps), { prefix: '/users' });
    await app.register(businessSuggestionRoutes(deps), { prefix: '/business' });
    await app.register(businessRoutes(deps), { prefix: '/business' });
    await app.register(commentRoutes(deps), { prefix: '/comment' });
    await app.register(subCommentRoutes(deps), { prefix: '/subComment' });
    await app.register(reportItemRoutes(deps, 'comment'), { prefix: '/comment' });
    await app.register(reportItemRoutes(deps, 'reply'), { prefix: '/subComment' });
    await app.register(imageRoutes(deps), { prefix: '/images' });
    await app.register(siteRoutes(deps));
    await app.register(moderationRoutes(deps));
    await app.register(ownerRoutes(deps));
    await app.register(ownerReplyReportRoutes(deps));
    await app.register(notificationRoutes(deps), { prefix: '/notifications' });
    await app.register(notificationSettingsRoutes(deps), { prefix: '/notification-settings' });
  };
}
