export { enGB as enDateLocale } from 'date-fns/locale/en-GB';
import { messages } from '../schemas/messages';
import type { Widen } from './types';
import type { sv } from './sv';
import { accounts } from './en/accounts';
import { business } from './en/business';
import { comments } from './en/comments';
import { common } from './en/common';
import { home } from './en/home';
import { moderation } from './en/moderation';
import { notifications } from './en/notifications';
import { owners } from './en/owners';
import { pages } from './en/pages';
import { profiles } from './en/profiles';
import { suggestions } from './en/suggestions';
import { places } from './en/places';

/** The English catalog; typed against sv.ts, so a missing key fails the type check. */
export const en: Widen<typeof sv> = {
  common,
  home,
  accounts,
  business,
  comments,
  pages,
  moderation,
  notifications,
  profiles,
  suggestions,
  owners,
  places,
  // The server's own texts are English already.
  messages,
};
