import { router } from '../init';

export const homeRouter = router({});
