// Which parts of the catalogs (shared/i18n/{sv,en}/*.ts) the first chunk carries, and how the
// rest is loaded (decision record 016). The catalog's type is the whole of shared/i18n/sv.ts;
// at run time the namespaces in LAZY_NAMESPACES are only there once loaded, which the router
// does with the page that uses them (PAGE_NAMESPACES, checked by namespaces.test.ts).
import type { Locale } from 'date-fns';
import { sv as svLocale } from 'date-fns/locale/sv';
import type { PageName } from '../../shared/schemas/routes';
import type { Language } from '../../shared/schemas/common';
import type { Catalog } from '../../shared/i18n/types';
import { business, businessMessagesSv } from '../../shared/i18n/sv/business';
import { comments, commentsMessagesSv } from '../../shared/i18n/sv/comments';
import { common, commonMessagesSv } from '../../shared/i18n/sv/common';
import { home } from '../../shared/i18n/sv/home';
import { moderation, moderationMessagesSv } from '../../shared/i18n/sv/moderation';
import { notifications } from '../../shared/i18n/sv/notifications';

/**
 * The namespaces that are not in the first chunk: each is its own small chunk per language,
 * loaded with the pages that use them. Everything else (what the layout and the home page use)
 * is in the first chunk. A component of the layout must not use one of these.
 */
export const LAZY_NAMESPACES = ['accounts', 'owners', 'places', 'suggestions', 'profiles', 'pages'] as const;
export type LazyNamespace = (typeof LAZY_NAMESPACES)[number];

/**
 * The lazy namespaces each page uses (itself and everything it imports): loaded before the page
 * renders. namespaces.test.ts fails when a page uses one that is not listed here.
 */
export const PAGE_NAMESPACES: Partial<Record<PageName, readonly LazyNamespace[]>> = {
  'business-detail': ['owners', 'places', 'suggestions'],
  claims: ['owners'],
  comment: ['owners'],
  'confirm-email': ['accounts'],
  'contact-inbox': ['accounts'],
  contact: ['pages'],
  directory: ['places'],
  'forgot-password': ['accounts'],
  'google-login': ['accounts'],
  login: ['accounts'],
  'mod-queue': ['suggestions'],
  'owner-numbers': ['owners'],
  profile: ['accounts', 'owners'],
  'public-profile': ['profiles'],
  registration: ['accounts'],
  'reset-password': ['accounts'],
  'site-settings': ['accounts'],
  'suggest-place': ['suggestions'],
  suggestions: ['suggestions'],
  'user-management': ['accounts'],
};

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

type Part = { ns: Catalog[LazyNamespace]; messages?: Partial<Catalog['messages']> };

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

/** Each lazy namespace per language; Swedish ones bring their server messages (English has all of them in its first part). */
export const lazyParts: Record<Language, Record<LazyNamespace, () => Promise<Part>>> = {
  sv: {
    accounts: () => import('../../shared/i18n/sv/accounts').then((m) => ({ ns: m.accounts, messages: m.accountsMessagesSv })),
    owners: () => import('../../shared/i18n/sv/owners').then((m) => ({ ns: m.owners, messages: m.ownerMessagesSv })),
    places: () => import('../../shared/i18n/sv/places').then((m) => ({ ns: m.places, messages: m.placesMessagesSv })),
    suggestions: () => import('../../shared/i18n/sv/suggestions').then((m) => ({ ns: m.suggestions, messages: m.suggestionMessagesSv })),
    profiles: () => import('../../shared/i18n/sv/profiles').then((m) => ({ ns: m.profiles })),
    pages: () => import('../../shared/i18n/sv/pages').then((m) => ({ ns: m.pages })),
  },
  en: {
    accounts: () => import('../../shared/i18n/en/accounts').then((m) => ({ ns: m.accounts })),
    owners: () => import('../../shared/i18n/en/owners').then((m) => ({ ns: m.owners })),
    places: () => import('../../shared/i18n/en/places').then((m) => ({ ns: m.places })),
    suggestions: () => import('../../shared/i18n/en/suggestions').then((m) => ({ ns: m.suggestions })),
    profiles: () => import('../../shared/i18n/en/profiles').then((m) => ({ ns: m.profiles })),
    pages: () => import('../../shared/i18n/en/pages').then((m) => ({ ns: m.pages })),
  },
};
