// Which parts of the catalogs (shared/i18n/{sv,en}/*.ts) the first chunk carries, and how the
// rest is loaded (decision record 016). The catalog's type is the whole of shared/i18n/sv.ts;
// at run time the namespaces in LAZY_NAMESPACES are only there once loaded, which the router
// does with the page that uses them (PAGE_NAMESPACES, checked by namespaces.test.ts).
import type { Locale } from 'date-fns';
import { sv as svLocale } from 'date-fns/locale/sv';
import type { Language } from '../../shared/schemas/common';
import type { Catalog } from '../../shared/i18n/types';
import { business, businessMessagesSv } from '../../shared/i18n/sv/business';
import { comments, commentsMessagesSv } from '../../shared/i18n/sv/comments';
import { common, commonMessagesSv } from '../../shared/i18n/sv/common';
import { home } from '../../shared/i18n/sv/home';
import { moderation, moderationMessagesSv } from '../../shared/i18n/sv/moderation';
import { notifications } from '../../shared/i18n/sv/notifications';
import type { LazyNamespace } from './namespace-chunks';

export { LAZY_NAMESPACES, PAGE_NAMESPACES, lazyParts, type LazyNamespace } from './namespace-chunks';

/**
 * A catalog as loaded: the first chunk's namespaces, and the lazy ones once loaded (mutable).
 * `messageParts`: the Swedish server messages by the namespace file that has them; t.messages is
 * all of the loaded ones, merged in shared/i18n/sv.ts's order (a key in two files, such as
 * websiteInvalid, takes the later file's text there and here).
 */
export type Loaded = { t: Catalog; locale: Locale; messageParts?: Partial<Record<MessagePart, Partial<Catalog['messages']>>> };

/** The order shared/i18n/sv.ts merges its namespaces' messages in. */
const MESSAGE_ORDER = ['common', 'accounts', 'business', 'comments', 'moderation', 'suggestions', 'owners', 'places'] as const;
type MessagePart = (typeof MESSAGE_ORDER)[number];

/** Adds a loaded namespace's server messages to its catalog's. */
export function addMessages(loaded: Loaded, ns: LazyNamespace, messages: Partial<Catalog['messages']> | undefined): void {
  if (!messages || !loaded.messageParts) return;
  loaded.messageParts[ns as MessagePart] = messages;
  for (const part of MESSAGE_ORDER) Object.assign(loaded.t.messages, loaded.messageParts[part]);
}

/** The Swedish catalog's first-chunk part; the lazy namespaces are added as they load. */
export function svFirst(): Loaded {
  const messageParts = { common: commonMessagesSv, business: businessMessagesSv, comments: commentsMessagesSv, moderation: moderationMessagesSv };
  const first: Omit<Catalog, LazyNamespace> = {
    common,
    home,
    business,
    comments,
    moderation,
    notifications,
    messages: { ...commonMessagesSv, ...businessMessagesSv, ...commentsMessagesSv, ...moderationMessagesSv } as Catalog['messages'],
  };
  return { t: first as Catalog, locale: svLocale, messageParts };
}

export const firstParts: Record<Language, () => Promise<Loaded>> = {
  sv: async () => svFirst(),
  en: () => import('./en-first').then((m) => m.enFirst()),
};
