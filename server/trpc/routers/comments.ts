import { router } from '../init';

export const commentsRouter = router({});
