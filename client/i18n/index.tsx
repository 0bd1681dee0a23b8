import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { formatDistanceToNow, type Locale } from 'date-fns';
import { sv as svLocale } from 'date-fns/locale/sv';
import type { Language } from '../../shared/schemas/common';
import { isMessageKey } from '../../shared/i18n/message-key';
import { formatNumber, pluralCategory } from '../../shared/i18n/number';
import { sv } from '../../shared/i18n/sv';
import type { Catalog } from '../../shared/i18n/types';

export type { Catalog };
export type { Language };

type Loaded = { t: Catalog; locale: Locale };

/**
 * Swedish (the default) is in the first chunk; English is its own chunk, fetched before the
 * first render when the cookie asks for it (the server adds a modulepreload hint) or when the
 * visitor switches language.
 */
const catalogs: Partial<Record<Language, Loaded>> = { sv: { t: sv, locale: svLocale } };
const loaders: Record<Language, () => Promise<Loaded>> = {
  sv: () => Promise.resolve({ t: sv, locale: svLocale }),
  en: () => import('../../shared/i18n/en').then((m) => ({ t: m.en, locale: m.enDateLocale })),
};

/** Resolves once the language's catalog is loaded (at once for Swedish). */
export async function loadCatalog(lang: Language): Promise<void> {
  catalogs[lang] ??= await loaders[lang]();
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
    return catalogs[wanted] ? wanted : 'sv';
  });
  const latest = useRef<Language>(lang);

  useEffect(() => {
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
        if (key && isMessageKey(key)) return t.messages[key];
        return t.common.genericError;
      },
    };
  }, [lang, setLang]);

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
    return isMessageKey(message) ? t.messages[message] : message;
  };
}
