import { useEffect, useRef } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { MapSettings } from '../../../shared/schemas/map-settings';
import styles from './places.module.css';

export type MapPlace = { id: string; lat: number; lng: number; label: string; href?: string };

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A Leaflet map of places (its own chunk: pages import it lazily, so their JS budget does not
 * carry it). Pins are circle markers, drawn without image files; the view fits them all.
 */
export default function PlacesMap({ places, settings, label }: { places: MapPlace[]; settings: NonNullable<MapSettings>; label: string }) {
  const element = useRef<HTMLDivElement>(null);
  // Parents build the list on every render: the map is redrawn only when the places change.
  const key = JSON.stringify(places);
  useEffect(() => {
    const places = JSON.parse(key) as MapPlace[];
    const host = element.current;
    if (!host || places.length === 0) return;
    const map = L.map(host, { scrollWheelZoom: false, attributionControl: true });
    L.tileLayer(settings.tiles, { attribution: settings.attribution, maxZoom: 19, subdomains: 'abc' }).addTo(map);
    const bounds = L.latLngBounds([]);
    for (const place of places) {
      const marker = L.circleMarker([place.lat, place.lng], { radius: 8, color: '#0b5d3b', weight: 2, fillColor: '#19a86b', fillOpacity: 0.9 });
      marker.bindPopup(place.href ? `<a href="${escape(place.href)}">${escape(place.label)}</a>` : escape(place.label));
      marker.addTo(map);
      bounds.extend([place.lat, place.lng]);
    }
    map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
    return () => void map.remove();
  }, [key, settings]);
  return <div ref={element} className={styles.map} role="region" aria-label={label} data-testid="places-map" />;
}
