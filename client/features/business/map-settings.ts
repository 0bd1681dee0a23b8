import { MAP_META, parseMapSettings, type MapSettings } from '../../../shared/schemas/map-settings';

let read: MapSettings | undefined;

/** The operator's map tiles from the page's meta (MAP_TILE_URL); null: maps are off. */
export function mapSettings(): MapSettings {
  if (typeof document === 'undefined') return null;
  return (read ??= parseMapSettings(document.querySelector(`meta[name="${MAP_META}"]`)?.getAttribute('content')));
}
