import type { Widen } from '../types';
import type { places as sv } from '../sv/places';

const EN_DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export const places: Widen<typeof sv> = {
  website: 'Website',
  phone: 'Phone',
  address: 'Address',
  hours: 'Opening hours',
  dayName: (day: number) => EN_DAYS[day - 1],
  dayShort: (day: number) => EN_DAYS[day - 1].slice(0, 3),
  period: (opens: string, closes: string) => (opens === '00:00' && closes === '00:00' ? 'open 24 hours' : `${opens}–${closes}`),
  closedDay: 'closed',
  exceptions: 'Special opening hours',
  openNow: (closes: string) => `Open now · closes ${closes}`,
  openAllDay: 'Open now · 24 hours',
  closedOpens: (opens: string, inDays: number, day: number) =>
    `Closed · opens ${inDays === 0 ? '' : inDays === 1 ? 'tomorrow ' : `${EN_DAYS[day - 1]} `}${opens}`,
  closed: 'Closed',
  timeZoneNote: 'Swedish time',
  form: {
    edit: 'Edit details and opening hours',
    heading: 'Details and opening hours',
    loading: 'Loading the form...',
  },
  map: {
    label: (name: string) => `Map of ${name}`,
    directoryLabel: 'Map of the stores in the list',
    show: 'Show map',
    hide: 'Hide map',
    loading: 'Loading the map...',
    noPlaces: 'No places to show on the map.',
  },
  nearMe: {
    sort: 'Nearest me',
    asking: 'Finding your position...',
    denied: 'Your position could not be found. The list is shown in its usual order.',
    note: 'Your position stays in your browser and is never sent to us.',
    distance: (km: string) => `${km} km away`,
  },
};
