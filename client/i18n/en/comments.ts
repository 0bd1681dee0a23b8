import type { Widen } from '../types';
import type { comments as sv } from '../sv/comments';

export const comments: Widen<typeof sv> = {};
