import { router } from '../init';

export const siteRouter = router({});
