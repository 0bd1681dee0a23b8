/** Great-circle distance in km between two [lat, lng] points (haversine; the browser's own sum). */
export function distanceKm(a: readonly [number, number], b: readonly [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[0] - a[0]) * rad;
  const dLng = (b[1] - a[1]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Each business's nearest branch from `here`, nearest first; businesses without positions are left out. */
export function byDistance(places: ReadonlyArray<{ id: string; positions: Array<[number, number]> }>, here: [number, number]): Map<string, number> {
  const nearest = places.map((p) => [p.id, Math.min(...p.positions.map((pos) => distanceKm(here, pos)))] as const);
  return new Map([...nearest].sort((a, b) => a[1] - b[1]));
}
