import type { Widen } from '../types';
import type { home as sv } from '../sv/home';

export const home: Widen<typeof sv> = {};
