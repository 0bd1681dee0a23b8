// The site's words (issue 29 item 15): the name, tagline and welcome text an admin set, which the
// server puts in every page's <meta> (server/plugins/site-settings.ts) and hands to its renders,
// else the release's own. The admin settings page replaces them once saved.
import { createContext, use, useMemo, useState, type ReactNode } from 'react';
import { DEFAULT_SITE_TEXT, parseSiteText, SITE_TEXT_META, type SiteText } from '../../shared/schemas/site-settings';

type SiteTextState = { site: SiteText; setSite(site: SiteText): void };

const SiteTextContext = createContext<SiteTextState>({ site: DEFAULT_SITE_TEXT, setSite: () => {} });

/** The words in the page's <meta> (none: the release's own). */
export function readSiteText(): SiteText {
  if (typeof document === 'undefined') return DEFAULT_SITE_TEXT;
  return parseSiteText(document.querySelector(`meta[name="${SITE_TEXT_META}"]`)?.getAttribute('content'));
}

/** `initial` comes from the server's render; the browser reads the page's <meta>. */
export function SiteTextProvider({ initial, children }: { initial?: SiteText; children: ReactNode }) {
  const [site, setSite] = useState(() => initial ?? readSiteText());
  const value = useMemo(() => ({ site, setSite }), [site]);
  return <SiteTextContext value={value}>{children}</SiteTextContext>;
}

export const useSiteText = () => use(SiteTextContext).site;
export const useSetSiteText = () => use(SiteTextContext).setSite;
