// The lazy namespaces of the catalogs (decision record 016): which page needs which, and the
// chunk of each per language. Kept apart from catalogs.ts, which carries the first chunk's
// Swedish text, so that the entry (client/main.tsx) can fetch a first page's namespaces
// alongside its chunk without bringing any text into the entry.
import type { PageName } from '../../shared/schemas/routes';
import type { Language } from '../../shared/schemas/common';
import type { Catalog } from '../../shared/i18n/types';

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

type Part = { ns: Catalog[LazyNamespace]; messages?: Partial<Catalog['messages']> };

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
