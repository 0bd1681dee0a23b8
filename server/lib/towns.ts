import { svFold } from './sv-fold';

/**
 * Swedish towns a branch's location may start with, as the city filter names them. A location
 * "Malmö Hyllie" is town "Malmö" with area "Hyllie"; longer names are tried first, so
 * "Upplands Väsby" stays whole. A location outside the list is a town of its own. The bench's
 * data set draws its branch towns from this list too (scripts/bench/words.ts).
 */
export const TOWNS: readonly string[] = [
  'Stockholm',
  'Göteborg',
  'Malmö',
  'Uppsala',
  'Västerås',
  'Örebro',
  'Linköping',
  'Helsingborg',
  'Jönköping',
  'Norrköping',
  'Lund',
  'Umeå',
  'Gävle',
  'Borås',
  'Södertälje',
  'Eskilstuna',
  'Halmstad',
  'Växjö',
  'Karlstad',
  'Sundsvall',
  'Östersund',
  'Trollhättan',
  'Luleå',
  'Kalmar',
  'Kristianstad',
  'Skövde',
  'Falun',
  'Borlänge',
  'Karlskrona',
  'Skellefteå',
  'Uddevalla',
  'Varberg',
  'Nyköping',
  'Visby',
  'Kiruna',
  'Huddinge',
  'Solna',
  'Sundbyberg',
  'Nacka',
  'Täby',
  'Upplands Väsby',
  'Sollentuna',
  'Lidingö',
  'Kungsbacka',
  'Mölndal',
  'Partille',
  'Landskrona',
  'Trelleborg',
  'Ystad',
  'Motala',
  'Piteå',
  'Örnsköldsvik',
  'Härnösand',
  'Kungälv',
  'Alingsås',
  'Ängelholm',
  'Mora',
  'Åre',
];

/** Places known by their own name that lie in a town: "Kungens Kurva" is in Huddinge. */
const AREAS_IN: Record<string, string> = { 'kungens kurva': 'Huddinge', barkarby: 'Järfälla', 'bromma blocks': 'Stockholm' };

/** Locations that name no town (the suggestion box's "Hela Sverige"). */
const NOWHERE = new Set(['hela sverige', 'all of sweden']);

const byLength = [...TOWNS].sort((a, b) => b.length - a.length);

/** The town and area a branch location names: 'Malmö Hyllie' → { town: 'Malmö', area: 'Hyllie' }. */
export function townOf(location: string): { town: string; area: string | null } {
  const text = location.trim().replace(/\s+/g, ' ');
  const folded = svFold(text);
  if (NOWHERE.has(folded)) return { town: '', area: null };
  const inTown = AREAS_IN[folded];
  if (inTown) return { town: inTown, area: text };
  for (const town of byLength) {
    const key = svFold(town);
    if (folded === key) return { town, area: null };
    if (folded.startsWith(`${key} `)) return { town, area: text.slice(town.length + 1) };
  }
  return { town: text, area: null };
}
