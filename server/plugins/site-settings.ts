import type { Env } from '../env';
import { isDefaultSiteText, SITE_TEXT_META, SOCIAL_META, type SiteText, type SocialLinks } from '../../shared/schemas/site-settings';
import { MAP_META } from '../../shared/schemas/map-settings';

export function socialLinksOf(env: Env): SocialLinks {
  const links: SocialLinks = {};
  if (env.SOCIAL_FACEBOOK_URL) links.facebook = env.SOCIAL_FACEBOOK_URL;
  if (env.SOCIAL_INSTAGRAM_URL) links.instagram = env.SOCIAL_INSTAGRAM_URL;
  if (env.SOCIAL_LINKEDIN_URL) links.linkedin = env.SOCIAL_LINKEDIN_URL;
  return links;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * index.html with the operator's settings the browser needs (the footer's social links, the map's tiles)
 * in a <meta>, once at start-up: every page, prerendered or not, carries the same few bytes.
 */
export function withSiteSettings(indexHtml: string, env: Env): string {
  const links = socialLinksOf(env);
  let meta = Object.keys(links).length === 0 ? '' : `<meta name="${SOCIAL_META}" content="${escapeAttr(JSON.stringify(links))}">`;
  // The map's tiles (MAP_TILE_URL); none when maps are off.
  if (env.MAP_TILE_URL)
    meta += `<meta name="${MAP_META}" content="${escapeAttr(JSON.stringify({ tiles: env.MAP_TILE_URL, attribution: env.MAP_TILE_ATTRIBUTION }))}">`;
  return meta ? indexHtml.replace('</head>', () => `${meta}</head>`) : indexHtml;
}

/**
 * A page's HTML with the site's words an admin set (issue 29 item 15) in a <meta>, which the
 * browser's app reads before its first render; unchanged while the release's own words are used.
 */
export function withSiteText(html: string, site: SiteText): string {
  if (isDefaultSiteText(site)) return html;
  const meta = `<meta name="${SITE_TEXT_META}" content="${escapeAttr(JSON.stringify(site))}">`;
  return html.replace('</head>', () => `${meta}</head>`);
}
