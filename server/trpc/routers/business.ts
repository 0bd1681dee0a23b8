import { router } from '../init';

export const businessRouter = router({});
