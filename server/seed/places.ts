import type { OpeningHours } from '../../shared/schemas/opening-hours';
import { townOf } from '../lib/towns';

/**
 * Real-looking facts for the demo directory (issue 31.1): each chain's website and customer
 * service number, and each branch's town, postal code, position and hours. Towns' centres are
 * real; a branch sits a few hundred metres from its centre (spread by its address, so the map
 * shows separate pins), with postal codes of the town's range. Looked up roughly, not checked
 * shop by shop; like the addresses, plausible rather than exact.
 */

const TOWN_FACTS: Record<string, { lat: number; lng: number; postal: string; phone: string }> = {
  Stockholm: { lat: 59.3326, lng: 18.0649, postal: '111', phone: '08' },
  Göteborg: { lat: 57.7072, lng: 11.9668, postal: '411', phone: '031' },
  Malmö: { lat: 55.605, lng: 13.0038, postal: '211', phone: '040' },
  Uppsala: { lat: 59.8586, lng: 17.6389, postal: '753', phone: '018' },
  Västerås: { lat: 59.6099, lng: 16.5448, postal: '722', phone: '021' },
  Örebro: { lat: 59.2741, lng: 15.2066, postal: '702', phone: '019' },
  Linköping: { lat: 58.4108, lng: 15.6214, postal: '582', phone: '013' },
  Jönköping: { lat: 57.7826, lng: 14.1618, postal: '553', phone: '036' },
  Lund: { lat: 55.7047, lng: 13.191, postal: '222', phone: '046' },
  Umeå: { lat: 63.8258, lng: 20.263, postal: '903', phone: '090' },
  Luleå: { lat: 65.5848, lng: 22.1547, postal: '972', phone: '0920' },
  Sundsvall: { lat: 62.3908, lng: 17.3069, postal: '852', phone: '060' },
  Huddinge: { lat: 59.2697, lng: 17.9286, postal: '141', phone: '08' },
};

/** Known areas lie where they are, not at the town's centre. */
const AREA_FACTS: Record<string, { lat: number; lng: number; postal: string }> = {
  'Malmö Hyllie': { lat: 55.5633, lng: 12.9757, postal: '215' },
  'Malmö Svågertorp': { lat: 55.5499, lng: 13.0008, postal: '215' },
  'Kungens Kurva': { lat: 59.2686, lng: 17.9197, postal: '141' },
  'Göteborg Bäckebol': { lat: 57.7722, lng: 11.9928, postal: '422' },
  'Göteborg Nordstan': { lat: 57.7087, lng: 11.9701, postal: '411' },
  'Göteborg Central': { lat: 57.7089, lng: 11.9733, postal: '411' },
  'Göteborg Järntorget': { lat: 57.6999, lng: 11.953, postal: '413' },
  'Linköping Tornby': { lat: 58.4326, lng: 15.5898, postal: '582' },
  'Västerås Erikslund': { lat: 59.6264, lng: 16.4633, postal: '721' },
  'Uppsala Gottsunda': { lat: 59.809, lng: 17.6169, postal: '752' },
  'Sundsvall Birsta': { lat: 62.4497, lng: 17.3527, postal: '863' },
  'Stockholm Central': { lat: 59.33, lng: 18.0583, postal: '111' },
};

const WEBSITES: Record<string, string> = {
  'ICA Maxi': 'https://www.ica.se',
  Coop: 'https://www.coop.se',
  Willys: 'https://www.willys.se',
  Hemköp: 'https://www.hemkop.se',
  Lidl: 'https://www.lidl.se',
  'Apotek Hjärtat': 'https://www.apotekhjartat.se',
  Apoteket: 'https://www.apoteket.se',
  'Kronans Apotek': 'https://www.kronansapotek.se',
  'Clas Ohlson': 'https://www.clasohlson.com',
  Biltema: 'https://www.biltema.se',
  Bauhaus: 'https://www.bauhaus.se',
  IKEA: 'https://www.ikea.com',
  Jysk: 'https://jysk.se',
  'H&M': 'https://www2.hm.com',
  ÅHLÉNS: 'https://www.ahlens.se',
  Lindex: 'https://www.lindex.com',
  KappAhl: 'https://www.kappahl.com',
  Elgiganten: 'https://www.elgiganten.se',
  NetOnNet: 'https://www.netonnet.se',
  'Espresso House': 'https://espressohouse.com',
  "Wayne's Coffee": 'https://www.waynescoffee.se',
  'Max Hamburgerrestauranger': 'https://www.max.se',
  Pressbyrån: 'https://www.pressbyran.se',
  PostNord: 'https://www.postnord.se',
  'Circle K': 'https://www.circlek.se',
  Preem: 'https://www.preem.se',
  Systembolaget: 'https://www.systembolaget.se',
  Stadium: 'https://www.stadium.se',
  Akademibokhandeln: 'https://www.akademibokhandeln.se',
};

/** A small stable number from a text, so the same branch always gets the same facts. */
function hashOf(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.codePointAt(0)!, 16777619);
  return h >>> 0;
}

const week = (days: number[], opens: string, closes: string) => days.map((day) => ({ day, opens, closes }));

/** Swedish public holidays of the coming winter and spring, the days most chains close or shorten. */
const HOLIDAYS: OpeningHours['exceptions'] = [
  { date: '2026-12-24', periods: [{ opens: '08:00', closes: '13:00' }], note: 'Julafton' },
  { date: '2026-12-25', periods: [], note: 'Juldagen' },
  { date: '2026-12-31', periods: [{ opens: '08:00', closes: '15:00' }], note: 'Nyårsafton' },
  { date: '2027-01-01', periods: [], note: 'Nyårsdagen' },
  { date: '2027-03-26', periods: [], note: 'Långfredagen' },
];

/** Typical hours by kind of business; the suggestion box has none. */
function hoursFor(category: string): OpeningHours | null {
  const weekly = (() => {
    switch (category) {
      case 'Livsmedel':
        return week([1, 2, 3, 4, 5, 6, 7], '07:00', '22:00');
      case 'Vin och sprit':
        return [...week([1, 2, 3, 4, 5], '10:00', '19:00'), ...week([6], '10:00', '15:00')];
      case 'Drivmedel':
        return week([1, 2, 3, 4, 5, 6, 7], '00:00', '00:00');
      case 'Kafé':
        return [...week([1, 2, 3, 4, 5], '07:00', '20:00'), ...week([6, 7], '09:00', '18:00')];
      case 'Snabbmat':
        return week([1, 2, 3, 4, 5, 6, 7], '10:30', '23:00');
      case 'Post och paket':
      case 'Servicebutik':
        return [...week([1, 2, 3, 4, 5], '07:00', '21:00'), ...week([6, 7], '09:00', '19:00')];
      case 'Förslag':
        return null;
      default:
        return [...week([1, 2, 3, 4, 5], '10:00', '20:00'), ...week([6], '10:00', '17:00'), ...week([7], '11:00', '17:00')];
    }
  })();
  if (!weekly) return null;
  return { weekly, exceptions: category === 'Drivmedel' ? [] : HOLIDAYS };
}

/** The website and phone of a demo business. */
export function demoBusinessFacts(title: string): { website: string | null; phone: string | null } {
  const website = WEBSITES[title] ?? null;
  return { website, phone: website ? `0771-${String(100 + (hashOf(title) % 900))} ${String(100 + (hashOf(`${title}#`) % 900))}` : null };
}

/** The facts of a demo branch at `location` with street `address`, of a business in `category`. */
export function demoBranchFacts(title: string, category: string, location: string, address: string | null) {
  const { town, area } = townOf(location);
  const centre = TOWN_FACTS[town];
  const known = AREA_FACTS[location];
  if (!centre) return { town, area, postalCode: null, lat: null, lng: null, phone: null, openingHours: null };
  const h = hashOf(`${title}|${location}|${address ?? ''}`);
  // Up to about 600 m from the centre, or 150 m from a known area's.
  const spread = known ? 0.0015 : 0.006;
  const lat = Math.round(((known?.lat ?? centre.lat) + ((h % 1000) / 1000 - 0.5) * spread) * 1e5) / 1e5;
  const lng = Math.round(((known?.lng ?? centre.lng) + (((h >>> 10) % 1000) / 1000 - 0.5) * spread * 2) * 1e5) / 1e5;
  const hours = hoursFor(category);
  return {
    town,
    area,
    postalCode: `${known?.postal ?? centre.postal} ${String(10 + (h % 80)).padStart(2, '0')}`,
    lat,
    lng,
    phone: `${centre.phone}-${String(100000 + (h % 900000)).replace(/(\d{2})(\d{2})(\d{2})/, '$1 $2 $3')}`,
    openingHours: hours ? JSON.stringify(hours) : null,
  };
}
