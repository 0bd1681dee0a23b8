import { describe, expect, it } from 'vitest';
import { loadEnv } from '../env';
import { parseSocialLinks, SOCIAL_META } from '../../shared/schemas/site-settings';
import { withSiteSettings } from './site-settings';

const INDEX = '<!doctype html><html lang="sv"><head><title>Recensera</title></head><body><div id="root"></div></body></html>';
const envWith = (vars: Record<string, string>) => loadEnv({ DATA_DIR: '/tmp/x', ...vars });

/** The meta's content as a browser reads it (attribute entities undone). */
function metaContent(html: string): string | null {
  const m = new RegExp(`<meta name="${SOCIAL_META}" content="([^"]*)">`).exec(html);
  return m
    ? m[1]
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&')
    : null;
}

describe('footer social links as settings', () => {
  it('adds nothing when no link is set (and maps are off)', () => {
    expect(withSiteSettings(INDEX, envWith({ MAP_TILE_URL: 'off' }))).toBe(INDEX);
  });

  it('carries the set links, and only those, to the browser', () => {
    const html = withSiteSettings(INDEX, envWith({ SOCIAL_INSTAGRAM_URL: 'https://www.instagram.com/recensera.lund?a=1&b="2"' }));
    expect(html).toContain(`<meta name="${SOCIAL_META}"`);
    expect(html.indexOf(SOCIAL_META)).toBeLessThan(html.indexOf('</head>'));
    expect(parseSocialLinks(metaContent(html))).toEqual({ instagram: 'https://www.instagram.com/recensera.lund?a=1&b="2"' });
  });

  it('refuses addresses that are not https at start-up', () => {
    for (const bad of ['http://facebook.com/x', 'javascript:alert(1)', 'facebook.com/x']) {
      expect(() => envWith({ SOCIAL_FACEBOOK_URL: bad })).toThrow(/SOCIAL_FACEBOOK_URL/);
    }
  });

  it('the browser side keeps known networks with https addresses only', () => {
    expect(parseSocialLinks('{"facebook":"javascript:alert(1)","linkedin":"https://linkedin.com/company/x","x":"https://x.com"}')).toEqual({
      linkedin: 'https://linkedin.com/company/x',
    });
    expect(parseSocialLinks('not json')).toEqual({});
    expect(parseSocialLinks(null)).toEqual({});
  });
});
