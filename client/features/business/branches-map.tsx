import { lazy, Suspense } from 'react';
import { useI18n } from '../../i18n';
import { useHydrated } from '../../lib/hydrated';
import { mapSettings } from './map-settings';
import type { MapPlace } from './places-map';
import styles from './places.module.css';

// Leaflet and its CSS load in their own chunk, only on pages that show a map.
const PlacesMap = lazy(() => import('./places-map'));

/** A map of these places, when the operator has maps on (MAP_TILE_URL) and any place has a position. */
export function BranchesMap({ places, label }: { places: MapPlace[]; label: string }) {
  const { t } = useI18n();
  const hydrated = useHydrated();
  const settings = hydrated ? mapSettings() : null;
  if (!settings || places.length === 0) return null;
  return (
    <div className={styles.mapSlot}>
      <Suspense fallback={<p className="muted">{t.places.map.loading}</p>}>
        <PlacesMap places={places} settings={settings} label={label} />
      </Suspense>
    </div>
  );
}
