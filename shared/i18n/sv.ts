import { accounts, accountsMessagesSv } from './sv/accounts';
import { business, businessMessagesSv } from './sv/business';
import { comments, commentsMessagesSv } from './sv/comments';
import { common, commonMessagesSv } from './sv/common';
import { home } from './sv/home';
import { moderation, moderationMessagesSv } from './sv/moderation';
import { notifications } from './sv/notifications';
import { owners, ownerMessagesSv } from './sv/owners';
import { pages } from './sv/pages';
import { profiles } from './sv/profiles';
import { suggestions, suggestionMessagesSv } from './sv/suggestions';
import { places, placesMessagesSv } from './sv/places';

/** The Swedish catalog: the source of truth every other language is typed against. */
export const sv = {
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
  /** Server messages by key (shared/schemas/messages.ts). */
  messages: {
    ...commonMessagesSv,
    ...accountsMessagesSv,
    ...businessMessagesSv,
    ...commentsMessagesSv,
    ...moderationMessagesSv,
    ...suggestionMessagesSv,
    ...ownerMessagesSv,
    ...placesMessagesSv,
  },
};
