import { publicProcedure, router } from '../init';
import { getMe } from '../../services/users';

export const usersRouter = router({
  me: publicProcedure.query(({ ctx }) => getMe(ctx.deps.db, ctx.actor)),
});
