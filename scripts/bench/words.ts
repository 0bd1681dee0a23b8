/**
 * Swedish vocabulary for the bench data set. Invented business names (no real trademarks) built
 * from parts, so 1,000 unique titles exist and title search meets å/ä/ö in mixed case.
 */

import { TOWNS } from '../../server/lib/towns';

/** Branch towns: the server's own list (the city filter's towns), so the two cannot drift apart. */
export const towns = TOWNS;

export const streets = [
  'Storgatan',
  'Drottninggatan',
  'Kungsgatan',
  'Järnvägsgatan',
  'Östra Hamngatan',
  'Södra Vägen',
  'Torggatan',
  'Skolgatan',
  'Kyrkogatan',
  'Industrivägen',
  'Ängsvägen',
  'Björkvägen',
  'Stationsgatan',
  'Nygatan',
  'Västra Långgatan',
  'Åsgatan',
];

export const namePrefixes = [
  'Norra',
  'Södra',
  'Östra',
  'Västra',
  'Gamla',
  'Lilla',
  'Stora',
  'Nya',
  'Kvarterets',
  'Torgets',
  'Hamnens',
  'Stationens',
  'Ängens',
  'Björkens',
  'Ekens',
  'Sjöns',
  'Åkerns',
  'Älvens',
  'Fjällets',
  'Skogens',
  'Bryggans',
  'Kyrkbackens',
  'Solgläntans',
  'Grönköpings',
  'Mälardalens',
];

/** Business kinds: a name word and the category it belongs to. */
export const kinds: { word: string; category: string }[] = [
  { word: 'Livs', category: 'Livsmedel' },
  { word: 'Matbutik', category: 'Livsmedel' },
  { word: 'Apotek', category: 'Apotek' },
  { word: 'Järnhandel', category: 'Bygg och järn' },
  { word: 'Byggvaror', category: 'Bygg och järn' },
  { word: 'Möbler', category: 'Möbler' },
  { word: 'Kläder', category: 'Kläder' },
  { word: 'Skor', category: 'Kläder' },
  { word: 'Elektronik', category: 'Elektronik' },
  { word: 'Kafé', category: 'Kafé' },
  { word: 'Konditori', category: 'Kafé' },
  { word: 'Grill', category: 'Snabbmat' },
  { word: 'Pizzeria', category: 'Snabbmat' },
  { word: 'Bageri', category: 'Kafé' },
  { word: 'Postombud', category: 'Post' },
  { word: 'Bensinstation', category: 'Drivmedel' },
  { word: 'Optik', category: 'Optik' },
  { word: 'Bokhandel', category: 'Böcker' },
  { word: 'Cykelverkstad', category: 'Fritid' },
  { word: 'Blomsterhandel', category: 'Blommor' },
];

export const nameSuffixes = ['', ' & Son', ' AB', ' Handel', ' Express', ' Center', ' Hörnan', ' i Centrum'];

export const firstNames = [
  'Anna',
  'Eva',
  'Maria',
  'Karin',
  'Sara',
  'Lena',
  'Emma',
  'Kerstin',
  'Ingrid',
  'Linnéa',
  'Åsa',
  'Maja',
  'Elin',
  'Sofia',
  'Ebba',
  'Märta',
  'Lars',
  'Anders',
  'Johan',
  'Per',
  'Erik',
  'Karl',
  'Nils',
  'Mikael',
  'Björn',
  'Jonas',
  'Oskar',
  'Olle',
  'Göran',
  'Håkan',
  'Sören',
  'Ali',
  'Amir',
  'Fatima',
  'Leila',
  'Mehmet',
  'Aino',
  'Jukka',
];

export const lastNames = [
  'Andersson',
  'Johansson',
  'Karlsson',
  'Nilsson',
  'Eriksson',
  'Larsson',
  'Olsson',
  'Persson',
  'Svensson',
  'Gustafsson',
  'Pettersson',
  'Jonsson',
  'Jansson',
  'Hansson',
  'Bengtsson',
  'Jönsson',
  'Lindberg',
  'Jakobsson',
  'Magnusson',
  'Lindström',
  'Åberg',
  'Öberg',
  'Sjöberg',
  'Ström',
  'Bäckström',
  'Holmqvist',
  'Hodžić',
  'Yilmaz',
  'Korhonen',
  'Nguyen',
];

const openers = [
  'Jag var här i går och',
  'Vi handlade här i helgen och',
  'Första gången här och',
  'Som vanligt',
  'Ärligt talat',
  'Tyvärr',
  'Äntligen',
  'Min sambo och jag tycker att',
  'Senast jag var här',
  'Efter jobbet',
  'På lördagsmorgonen',
  'Det märks att',
];

const subjects = [
  'personalen',
  'kassan',
  'kön',
  'utbudet',
  'kaffet',
  'priset',
  'parkeringen',
  'öppettiderna',
  'butiken',
  'servicen',
  'expediten',
  'kanelbullen',
  'leveransen',
  'returen',
  'stämningen',
  'städningen',
  'hyllorna',
  'erbjudandet',
  'rådgivningen',
  'lunchen',
];

const verbs = ['var', 'kändes', 'verkade', 'blev', 'är alltid', 'är numera', 'var faktiskt'];

const adjectives = [
  'jättebra',
  'trevlig',
  'snabb',
  'långsam',
  'dyr',
  'prisvärd',
  'ren',
  'rörig',
  'hjälpsam',
  'otrevlig',
  'fantastisk',
  'helt okej',
  'sämre än förr',
  'bättre än väntat',
  'lagom',
  'krånglig',
  'smidig',
  'välsorterad',
  'överraskande god',
  'för trång',
];

const closers = [
  'Kommer gärna tillbaka.',
  'Rekommenderas!',
  'Tack för hjälpen!',
  'Hoppas det blir bättre.',
  'Fem stjärnor från mig.',
  'Inget mer att säga.',
  'Värt ett besök.',
  'Ta med kontanter, kortläsaren krånglade.',
  'Barnen älskade det.',
  'Fika rekommenderas.',
  'Parkera på baksidan.',
  'Mycket nöjd!',
];

const replyOpeners = [
  'Håller med!',
  'Inte alls min upplevelse.',
  'Tack för tipset.',
  'Samma här.',
  'Precis så.',
  'Intressant, jag',
  'Konstigt, vi',
  'Haha, känner igen det.',
  'Bra skrivet.',
  'Vilken tur!',
];

export type Pick = <T>(list: readonly T[]) => T;

function sentence(pick: Pick): string {
  return `${pick(openers)} ${pick(subjects)} ${pick(verbs)} ${pick(adjectives)}.`;
}

/** One to four sentences, sometimes with a closing remark; 60–300 characters. */
export function commentText(pick: Pick, sentences: number): string {
  const parts: string[] = [];
  for (let i = 0; i < sentences; i++) parts.push(sentence(pick));
  parts.push(pick(closers));
  return parts.join(' ');
}

export function replyText(pick: Pick, long: boolean): string {
  return long ? `${pick(replyOpeners)} ${sentence(pick)}` : pick(replyOpeners);
}

export function descriptionText(pick: Pick, title: string, category: string): string {
  return `${title} är en ${category.toLowerCase()}butik med ${pick(adjectives)} service. ${sentence(pick)} ${pick(closers)}`;
}

/** A word about one comment in eight contains (subjects list): the comment-search term. */
export const commentSearchTerm = 'personalen';
