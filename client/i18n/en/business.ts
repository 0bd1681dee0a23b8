import type { Widen } from '../types';
import type { business as sv } from '../sv/business';

export const business: Widen<typeof sv> = {};
