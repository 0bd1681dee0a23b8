import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { formatDistanceToNow } from 'date-fns';
import type { Language } from '../../shared/schemas/common';
import type { PageName } from '../../shared/schemas/routes';
import type { MessageKey } from '../../shared/schemas/messages';
import { formatNumber, pluralCategory } from '../../shared/i18n/number';
import type { Catalog } from '../../shared/i18n/types';
import { addMessages, firstParts, lazyParts, svFirst, LAZY_NAMESPACES, PAGE_NAMESPACES, type LazyNamespace, type Loaded } from './catalogs';

export type { Catalog };
export type { Language };
export type { LazyNamespace };

/**
 * Swedish (the default) is in the first chunk, without the namespaces only some pages use
 * (catalogs.ts: LAZY_NAMESPACES), which load with those pages. English is its own chunk,
 * fetched before the first render when the cookie asks for it (the server adds a modulepreload
 * hint) or when the visitor switches language; its lazy namespaces load like the Swedish ones.
 */
const catalogs: Partial<Record<Language, Loaded>> = { sv: svFirst() };
const pending: Partial<Record<Language, Promise<Loaded>>> = { sv: Promise.resolve(catalogs.sv!) };
/** The lazy namespaces asked for so far: a language loaded later loads them too. */
const wantedParts = new Set<LazyNamespace>();
/** Told when a lazy namespace arrives, so text that fell back (errorText) is rendered again. */
const listeners = new Set<() => void>();

function first(lang: Language): Promise<Loaded> {
  return (pending[lang] ??= firstParts[lang]().then(
    (loaded) => (catalogs[lang] = loaded),
    (err: unknown) => {
      delete pending[lang];
      throw err;
    },
  ));
}
async function loadParts(lang: Language, names: readonly LazyNamespace[]): Promise<void> {
  const loaded = await first(lang);
  const { t } = loaded;
  const missing = names.filter((name) => !(name in t));
  if (missing.length === 0) return;
  const parts = await Promise.all(missing.map((name) => lazyParts[lang][name]()));
  missing.forEach((name, i) => {
    const part = parts[i];
    Object.assign(t, { [name]: part.ns });
    addMessages(loaded, name, part.messages);
  });
  listeners.forEach((listener) => listener());
}

/** The language last asked for (loadCatalog), and the one the app shows (I18nProvider). */
let asked: Language | null = null;
let shown: Language | null = null;

/** Resolves once the language's catalog is loaded (its first part, and the lazy namespaces asked for so far). */
export async function loadCatalog(lang: Language): Promise<void> {
  asked = lang;
  await first(lang);
  await loadParts(lang, [...wantedParts]);
}

/**
 * Loads lazy namespaces in the language asked for and the one shown (the same but while a
 * switch loads); a language loaded later loads them too.
 */
export async function loadNamespaces(names: readonly LazyNamespace[], lang?: Language): Promise<void> {
  names.forEach((name) => wantedParts.add(name));
  const langs = new Set<Language>(lang ? [lang] : [asked ?? readLanguage(), ...(shown ? [shown] : [])]);
  await Promise.all([...langs].map((l) => loadParts(l, names)));
}

/**
 * Whether `value` is a server message key whose text is loaded in the language shown. The texts
 * of some namespaces come with their pages (catalogs.ts), so the check reads the loaded catalog
 * rather than a list of every key (which would bring every text into the first chunk).
 */
export function isMessageKey(value: string): value is MessageKey {
  return hasMessage((catalogs[shown ?? 'sv'] ?? catalogs.sv!).t, value);
}

function hasMessage(t: Catalog, value: string): value is MessageKey {
  return Object.prototype.hasOwnProperty.call(t.messages, value);
}

/** Loads the lazy namespaces a page uses (client/routes.tsx, with the page's chunk). */
export function loadPageNamespaces(page: PageName): Promise<void> {
  return loadNamespaces(PAGE_NAMESPACES[page] ?? []);
}

/** Loads every namespace: a server render (client/prerender.tsx) has them all. */
export function loadAllNamespaces(lang?: Language): Promise<void> {
  return loadNamespaces(LAZY_NAMESPACES, lang);
}

export const LANG_COOKIE = 'lang';

export function readLanguageCookie(): Language {
  const match = document.cookie.match(/(?:^|;\s*)lang=(sv|en)/);
  return match?.[1] === 'en' ? 'en' : 'sv';
}

function writeLanguageCookie(lang: Language) {
  document.cookie = `${LANG_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/** The query parameter that names a page's language in its URL (server/plugins/page-head.ts). */
export const LANG_PARAM = 'lang';

/** The language the page's URL asks for (`?lang=sv|en`), if any. */
export function languageInUrl(): Language | null {
  const asked = new URLSearchParams(window.location.search).get(LANG_PARAM);
  return asked === 'sv' || asked === 'en' ? asked : null;
}

/**
 * The page's language: the one its URL names (the server rendered the page in it, and it becomes
 * the visitor's choice from here on), else the cookie's.
 */
export function readLanguage(): Language {
  const asked = languageInUrl();
  if (!asked) return readLanguageCookie();
  if (asked !== readLanguageCookie()) writeLanguageCookie(asked);
  return asked;
}

type I18n = {
  lang: Language;
  t: Catalog;
  setLang(lang: Language): void;
  /** "för 3 dagar sedan" / "3 days ago"; null for a missing date. */
  relative(date: number | string | Date | null | undefined): string | null;
  /** Picks the plural form by the language's rules: plural(n, { one: 'svar', other: 'svar' }). */
  plural(n: number, forms: { one: string; other: string }): string;
  number(n: number, digits?: number): string;
  /** The translation of a server error (message key), falling back to its text. */
  errorText(error: unknown): string;
};

const I18nContext = createContext<I18n | null>(null);

/** Renders in `initial` (else the cookie's language) when its catalog is loaded, else in Swedish until it is. */
export function I18nProvider({ children, initial }: { children: ReactNode; initial?: Language }) {
  const [lang, setLangState] = useState<Language>(() => {
    const wanted = initial ?? readLanguage();
    return (shown = catalogs[wanted] ? wanted : 'sv');
  });
  // Bumped when a lazy namespace arrives: a server message that fell back to the generic text
  // (its namespace not loaded yet) is shown in its own words.
  const [partsLoaded, setPartsLoaded] = useState(0);
  useEffect(() => {
    const listener = () => setPartsLoaded((n) => n + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  const latest = useRef<Language>(lang);

  useEffect(() => {
    shown = lang;
    document.documentElement.lang = lang;
  }, [lang]);

  const setLang = useCallback((next: Language) => {
    writeLanguageCookie(next);
    // A URL that names its language names the new one, so a reload or a copied link stays in it.
    if (languageInUrl()) {
      const url = new URL(window.location.href);
      url.searchParams.set(LANG_PARAM, next);
      window.history.replaceState(window.history.state, '', url);
    }
    latest.current = next;
    // A catalog that fails to load (offline) leaves the page in its current language.
    loadCatalog(next).then(
      () => {
        if (latest.current === next) setLangState(next);
      },
      () => {},
    );
  }, []);

  const value = useMemo<I18n>(() => {
    const { t, locale } = catalogs[lang] ?? catalogs.sv!;
    void partsLoaded;
    return {
      lang,
      t,
      setLang,
      relative(date) {
        if (date === null || date === undefined) return null;
        const d = new Date(date);
        if (Number.isNaN(d.getTime())) return null;
        return formatDistanceToNow(d, { addSuffix: true, locale });
      },
      plural(n, forms) {
        return pluralCategory(n) === 'one' ? forms.one : forms.other;
      },
      number(n, digits = 0) {
        return formatNumber(n, digits, lang);
      },
      errorText(error) {
        const key = errorKeyOf(error);
        if (key && hasMessage(t, key)) return t.messages[key];
        // Perhaps a message of a namespace this page did not load (rare: most come from its
        // own forms): the generic text now, its own once every namespace is here.
        if (key && LAZY_NAMESPACES.some((name) => !(name in t))) void loadAllNamespaces(lang).catch(() => {});
        return t.common.genericError;
      },
    };
  }, [lang, setLang, partsLoaded]);

  return <I18nContext value={value}>{children}</I18nContext>;
}

/** Reads the message key from a tRPC error (data.key) or an upload/REST error (key). */
export function errorKeyOf(error: unknown): string | null {
  if (!error || typeof error !== 'object') return null;
  const e = error as { data?: { key?: unknown } | null; key?: unknown };
  if (typeof e.data?.key === 'string') return e.data.key;
  if (typeof e.key === 'string') return e.key;
  return null;
}

/** Field errors of a tRPC validation error, as message keys by field name. */
export function errorFieldsOf(error: unknown): Record<string, string> {
  const e = error as { data?: { fields?: Record<string, string> | null } | null } | null;
  return e?.data?.fields ?? {};
}

export function useI18n(): I18n {
  const ctx = use(I18nContext);
  if (!ctx) throw new Error('useI18n outside I18nProvider');
  return ctx;
}

/** Translates a zod message key from a form error; unknown texts pass through. */
export function useFieldError() {
  const { t } = useI18n();
  return (message: string | undefined) => {
    if (!message) return undefined;
    return hasMessage(t, message) ? t.messages[message] : message;
  };
}
