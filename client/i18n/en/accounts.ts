import type { Widen } from '../types';
import type { accounts as sv } from '../sv/accounts';

export const accounts: Widen<typeof sv> = {};
