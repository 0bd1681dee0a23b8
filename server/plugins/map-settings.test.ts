import { describe, expect, it } from 'vitest';
import { loadEnv } from '../env';
import { MAP_META, OSM_TILES, parseMapSettings, tileSource } from '../../shared/schemas/map-settings';
import { headersOf, securityHeaderOptions } from './security';
import { withSiteSettings } from './site-settings';

const INDEX = '<!doctype html><html lang="sv"><head><title>Recensera</title></head><body></body></html>';
const envWith = (vars: Record<string, string>) => loadEnv({ DATA_DIR: '/tmp/x', ...vars });
const metaOf = (html: string) => {
  const m = new RegExp(`<meta name="${MAP_META}" content="([^"]*)">`).exec(html);
  return m
    ? m[1]
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&')
    : null;
};
const imgSrc = (vars: Record<string, string>) => /img-src ([^;]*)/.exec(headersOf(securityHeaderOptions(envWith(vars)))['content-security-policy'])?.[1];

describe('MAP_TILE_URL', () => {
  it("defaults to OpenStreetMap's standard tiles with their attribution, allowed by the CSP", () => {
    const settings = parseMapSettings(metaOf(withSiteSettings(INDEX, envWith({}))));
    expect(settings?.tiles).toBe(OSM_TILES);
    expect(settings?.attribution).toContain('OpenStreetMap');
    expect(imgSrc({})).toBe("'self' data: blob: https://tile.openstreetmap.org");
  });

  it('takes another https tile server, with a {s} subdomain as a wildcard in the CSP', () => {
    const tiles = 'https://{s}.tiles.example.se/{z}/{x}/{y}.png';
    expect(parseMapSettings(metaOf(withSiteSettings(INDEX, envWith({ MAP_TILE_URL: tiles })))))?.toMatchObject({ tiles });
    expect(imgSrc({ MAP_TILE_URL: tiles })).toBe("'self' data: blob: https://*.tiles.example.se");
    expect(tileSource('https://maps.example.se/t/{z}/{x}/{y}.png')).toBe('https://maps.example.se');
  });

  it('off: no map settings on the page and no third-party host in the CSP', () => {
    expect(metaOf(withSiteSettings(INDEX, envWith({ MAP_TILE_URL: 'off' })))).toBeNull();
    expect(imgSrc({ MAP_TILE_URL: 'OFF' })).toBe("'self' data: blob:");
  });

  it('refuses at start-up a template that is not https or lacks {z}, {x}, {y}', () => {
    for (const bad of ['http://tile.example.se/{z}/{x}/{y}.png', 'https://tile.example.se/{z}/{x}.png', 'tiles']) {
      expect(() => envWith({ MAP_TILE_URL: bad })).toThrow(/MAP_TILE_URL/);
    }
  });

  it('the browser side takes only an https template', () => {
    expect(parseMapSettings('{"tiles":"javascript:alert(1)/{z}{x}{y}"}')).toBeNull();
    expect(parseMapSettings('not json')).toBeNull();
    expect(parseMapSettings(null)).toBeNull();
  });
});
