import type { businessFactsMessages } from '../../schemas/business-facts-messages';

const SV_DAYS = ['måndag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lördag', 'söndag'];

/** A business's and its branches' facts, opening hours and maps (issue 31). */
export const places = {
  website: 'Webbplats',
  phone: 'Telefon',
  address: 'Adress',
  hours: 'Öppettider',
  dayName: (day: number) => SV_DAYS[day - 1],
  dayShort: (day: number) => SV_DAYS[day - 1].slice(0, 3),
  period: (opens: string, closes: string) => (opens === '00:00' && closes === '00:00' ? 'dygnet runt' : `${opens}–${closes}`),
  closedDay: 'stängt',
  exceptions: 'Avvikande öppettider',
  openNow: (closes: string) => `Öppet nu · stänger ${closes}`,
  openAllDay: 'Öppet nu · dygnet runt',
  closedOpens: (opens: string, inDays: number, day: number) =>
    `Stängt · öppnar ${inDays === 0 ? '' : inDays === 1 ? 'i morgon ' : `${SV_DAYS[day - 1]} `}${opens}`,
  closed: 'Stängt',
  timeZoneNote: 'Svensk tid',
  /** The button and heading of the owners' and admins' form (its texts: places-form.ts, issue 31.1). */
  form: {
    edit: 'Ändra uppgifter och öppettider',
    heading: 'Uppgifter och öppettider',
    loading: 'Laddar formuläret...',
  },
  map: {
    label: (name: string) => `Karta över ${name}`,
    directoryLabel: 'Karta över butikerna i listan',
    show: 'Visa karta',
    hide: 'Dölj karta',
    loading: 'Laddar kartan...',
    noPlaces: 'Inga platser att visa på kartan.',
  },
  nearMe: {
    sort: 'Närmast mig',
    asking: 'Hämtar din position...',
    denied: 'Din position kunde inte hämtas. Listan visas i vanlig ordning.',
    note: 'Din position stannar i webbläsaren och skickas aldrig till oss.',
    distance: (km: string) => `${km} km bort`,
  },
} as const;

export const placesMessagesSv: Record<keyof typeof businessFactsMessages, string> = {
  websiteInvalid: 'Ange en webbadress som börjar med https://.',
  phoneInvalid: 'Ange ett telefonnummer med siffror, mellanslag och ett valfritt +.',
  postalCodeInvalid: 'Ange ett postnummer med fem siffror, till exempel 211 20.',
  townInvalid: 'Ange en ort på 2 till 50 tecken.',
  coordinatesInvalid: 'Ange både latitud och longitud i grader, eller ingen av dem.',
  hoursTimeInvalid: 'Ange tider som TT:MM, till exempel 09:30.',
  hoursDayInvalid: 'En veckodag är 1 (måndag) till 7 (söndag).',
  hoursDateInvalid: 'Ange datum som ÅÅÅÅ-MM-DD.',
  hoursDateTwice: 'Varje datum kan bara ha ett undantag.',
  hoursNoteTooLong: 'Anteckningen är för lång.',
  hoursTooMany: 'För många öppettider.',
  branchNotOfBusiness: 'Den filialen hör till ett annat företag.',
};
