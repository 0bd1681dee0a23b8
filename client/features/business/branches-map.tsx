import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useI18n } from '../../i18n';
import { useHydrated } from '../../lib/hydrated';
import { mapSettings } from './map-settings';
import type { MapPlace } from './places-map';
import styles from './places.module.css';

// Leaflet and its CSS load in their own chunk, only on pages that show a map.
const PlacesMap = lazy(() => import('./places-map'));

/** How near the viewport the map's slot must come before Leaflet is loaded. */
const NEAR = '0px 0px 400px 0px';

/**
 * True once `element` has come within NEAR of the viewport (at once where the browser has no
 * IntersectionObserver). Leaflet's chunk (43 KB gzip) and its start-up are the longest task a
 * business page had after hydration; below the fold on a phone, they wait until the visitor
 * scrolls towards the map (docs/decisions/021).
 */
function useNearViewport(element: React.RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = element.current;
    if (!enabled || near || !el) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: NEAR },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [element, enabled, near]);
  return near;
}

/** A map of these places, when the operator has maps on (MAP_TILE_URL) and any place has a position. */
export function BranchesMap({ places, label }: { places: MapPlace[]; label: string }) {
  const { t } = useI18n();
  const hydrated = useHydrated();
  const settings = hydrated ? mapSettings() : null;
  const slot = useRef<HTMLDivElement>(null);
  const shown = settings !== null && places.length > 0;
  const near = useNearViewport(slot, shown);
  if (!settings || !shown) return null;
  // Until it is near, the slot keeps the map's height, so the map does not push what is below.
  return (
    <div className={styles.mapSlot} ref={slot} data-testid="map-slot">
      {near ? (
        <Suspense fallback={<p className={`muted ${styles.mapPending}`}>{t.places.map.loading}</p>}>
          <PlacesMap places={places} settings={settings} label={label} />
        </Suspense>
      ) : (
        <div className={styles.mapPending} aria-hidden="true" />
      )}
    </div>
  );
}
