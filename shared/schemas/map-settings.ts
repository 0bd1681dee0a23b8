// Kept free of zod: the client's first chunk reads this.

/**
 * The map tiles the operator chose (MAP_TILE_URL): the server puts them in this <meta> on every
 * page (server/plugins/site-settings.ts); `off` (or no meta, as in a page prerendered without a
 * server) shows no map and fetches no tile.
 */
export const MAP_META = 'recensera:map';
export const OSM_TILES = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

export type MapSettings = { tiles: string; attribution: string } | null;

/** The settings from the meta's content: only an https tile template with {z}, {x} and {y}. */
export function parseMapSettings(content: string | null | undefined): MapSettings {
  if (!content) return null;
  try {
    const parsed = JSON.parse(content) as { tiles?: unknown; attribution?: unknown };
    if (typeof parsed.tiles !== 'string' || !isTileTemplate(parsed.tiles)) return null;
    return { tiles: parsed.tiles, attribution: typeof parsed.attribution === 'string' ? parsed.attribution : '' };
  } catch {
    return null;
  }
}

export const isTileTemplate = (url: string) => /^https:\/\/[^\s"'<>]+$/.test(url) && ['{z}', '{x}', '{y}'].every((p) => url.includes(p));

/** The CSP source of a tile template's host: `https://*.tile.example` when it has a {s} subdomain. */
export function tileSource(template: string): string {
  const host = new URL(template.replace(/\{[a-z]\}/g, '0')).host;
  return template.includes('{s}.') ? `https://*.${host.split('.').slice(1).join('.')}` : `https://${host}`;
}
