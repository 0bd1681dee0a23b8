import type { UserKey } from './users';

/**
 * What the demo users wrote. Times are hours before the seed runs (replies: hours after their
 * comment), so a fresh install always shows a feed from the last few weeks. Each location is one
 * of that business's branch locations. `stars` is the author's star rating of the business,
 * given with the comment as the comment form allows.
 */
export type SeedReply = { author: UserKey; after: number; text: string };
export type SeedComment = {
  business: string;
  location: string;
  author: UserKey;
  hoursAgo: number;
  stars?: number;
  text: string;
  replies: SeedReply[];
};

export const demoComments: SeedComment[] = [
  {
    business: 'Espresso House',
    location: 'Lund',
    author: 'anna',
    hoursAgo: 3,
    stars: 4,
    text: 'Satt här och pluggade en regnig eftermiddag. Kaffet var gott och personalen fyllde på vattenkaraffen utan att jag behövde fråga. Lite ont om eluttag bara.',
    replies: [{ author: 'liwei', after: 1, text: 'Håller med om uttagen, man får komma tidigt om man ska jobba där.' }],
  },
  {
    business: 'Systembolaget',
    location: 'Umeå',
    author: 'johanna',
    hoursAgo: 8,
    stars: 5,
    text: 'Frågade om ett vin till älggrytan och fick tre bra förslag i olika prisklasser. Kort kö trots fredag eftermiddag.',
    replies: [
      { author: 'oskar', after: 2, text: 'Bra att fråga personalen, de brukar kunna sina saker.' },
      { author: 'johanna', after: 3, text: 'Ja! Det blev en Rioja till slut och den passade perfekt.' },
    ],
  },
  {
    business: 'Biltema',
    location: 'Linköping',
    author: 'oskar',
    hoursAgo: 15,
    stars: 5,
    text: 'Köpte en domkraft och ett nytt batteri till bilen. Killen på bilavdelningen hjälpte mig hitta rätt batteri för min modell och visade hur man kopplar in det.',
    replies: [{ author: 'erik', after: 2, text: 'Biltema är svårslaget när det gäller bilbatterier.' }],
  },
  {
    business: 'Clas Ohlson',
    location: 'Västerås City',
    author: 'erik',
    hoursAgo: 20,
    stars: 4,
    text: 'Behövde en ny säkring och en förlängningssladd. Hittade allt på fem minuter och kunde betala i självkassan. Precis så en järnhandel ska fungera.',
    replies: [
      { author: 'anna', after: 4, text: 'Clas Ohlson räddar mig varje gång något går sönder hemma 😄' },
      { author: 'erik', after: 5, text: 'Haha, samma här. Batterihyllan är min bästa vän.' },
    ],
  },
  {
    business: 'IKEA',
    location: 'Kungens Kurva',
    author: 'liwei',
    hoursAgo: 30,
    stars: 3,
    text: 'Lördag mitt på dagen var ingen bra idé. Utställningen var full av folk och två av hyllorna jag ville ha var slut i lagret.\nKöttbullarna i restaurangen var dock lika goda som vanligt.',
    replies: [
      { author: 'sara', after: 3, text: 'Tips: åk en tisdag förmiddag, då är det nästan tomt.' },
      { author: 'mohammed', after: 6, text: 'Kolla lagersaldot i appen innan du åker, det har sparat mig flera resor.' },
      { author: 'liwei', after: 8, text: 'Bra tips båda två, nästa gång blir det en vardag.' },
    ],
  },
  {
    business: 'Apotek Hjärtat',
    location: 'Umeå',
    author: 'johanna',
    hoursAgo: 44,
    stars: 5,
    text: 'Farmaceuten tog sig tid att förklara hur jag skulle ta min nya medicin tillsammans med den jag redan har. Kändes tryggt.',
    replies: [],
  },
  {
    business: 'Willys',
    location: 'Göteborg Järntorget',
    author: 'sara',
    hoursAgo: 52,
    stars: 4,
    text: 'Bra priser som vanligt och fräscht bland frukt och grönt. Självskanningen krånglade lite, men en anställd kom direkt och hjälpte till.',
    replies: [{ author: 'erik', after: 2, text: 'Självskanningen är guld när den fungerar!' }],
  },
  {
    business: 'Max Hamburgerrestauranger',
    location: 'Luleå',
    author: 'johanna',
    hoursAgo: 70,
    stars: 4,
    text: 'Drive-in efter träningen. Maten kom snabbt och var varm, och de vegetariska burgarna är faktiskt riktigt goda.',
    replies: [
      { author: 'oskar', after: 1, text: 'Den gröna är min favorit också.' },
      { author: 'anna', after: 10, text: 'Max vegoburgare slår de flesta andra kedjors, tycker jag.' },
    ],
  },
  {
    business: 'PostNord',
    location: 'Linköping',
    author: 'oskar',
    hoursAgo: 90,
    stars: 2,
    text: "Paketet skulle komma på tisdagen men dök upp hos ombudet först på fredagen. Spårningen stod på 'under transport' hela veckan.",
    replies: [
      { author: 'mohammed', after: 5, text: 'Samma sak hände mig förra månaden. Irriterande när man väntar på något viktigt.' },
      { author: 'admin', after: 20, text: 'Tack för att du delar med dig. Hoppas att det löste sig till slut!' },
      { author: 'oskar', after: 22, text: 'Det gjorde det, och paketet var helt i alla fall.' },
    ],
  },
  {
    business: 'Elgiganten',
    location: 'Malmö Hyllie',
    author: 'anna',
    hoursAgo: 110,
    stars: 3,
    text: 'Köpte en dammsugare som gick sönder efter tre veckor. Reklamationen i kundservice gick smidigt, men det tog nästan två veckor att få en ny.',
    replies: [{ author: 'sara', after: 6, text: 'Bra att de tog det utan krångel i alla fall.' }],
  },
  {
    business: 'Lidl',
    location: 'Uppsala',
    author: 'mohammed',
    hoursAgo: 130,
    stars: 4,
    text: 'Nybakat bröd varje morgon och billigt kaffe. Kön kan bli lång efter fem, men de brukar öppna en kassa till.',
    replies: [{ author: 'liwei', after: 3, text: 'Deras croissanter är farligt goda.' }],
  },
  {
    business: 'Stadium',
    location: 'Umeå',
    author: 'johanna',
    hoursAgo: 150,
    stars: 5,
    text: 'Skulle köpa nya löparskor och fick prova flera par på löpbandet i butiken. Personalen kunde verkligen sin sak.',
    replies: [
      { author: 'erik', after: 8, text: 'Vilka blev det till slut?' },
      { author: 'johanna', after: 9, text: 'Ett par med lite mer dämpning, perfekt för grusvägarna här uppe.' },
    ],
  },
  {
    business: 'H&M',
    location: 'Västerås City',
    author: 'erik',
    hoursAgo: 170,
    stars: 3,
    text: 'Köpte en skjorta till min son. Bra pris, men lång kö till provrummen och bara en öppen kassa.',
    replies: [],
  },
  {
    business: 'Akademibokhandeln',
    location: 'Uppsala',
    author: 'liwei',
    hoursAgo: 190,
    stars: 5,
    text: 'Beställde en kursbok som inte fanns inne och fick ett sms två dagar senare om att den hade kommit. Smidigt!',
    replies: [{ author: 'mohammed', after: 4, text: 'Bra att veta inför nästa termin.' }],
  },
  {
    business: 'Biltema',
    location: 'Örebro',
    author: 'mohammed',
    hoursAgo: 210,
    stars: 4,
    text: 'Bytte torkarblad själv efter att ha köpt dem här. Billigt, och det stod tydligt på hyllan vilka som passar min bil.',
    replies: [
      { author: 'oskar', after: 2, text: 'Biltema är farligt, man går in för torkarblad och kommer ut med en kajak.' },
      { author: 'mohammed', after: 3, text: 'Haha, jag klarade mig med en korv i kafeterian den här gången.' },
    ],
  },
  {
    business: 'Add New',
    location: 'Hela Sverige',
    author: 'sara',
    hoursAgo: 230,
    text: 'Jag saknar Normal! Skulle gärna läsa vad andra tycker om deras butiker i Göteborg.',
    replies: [{ author: 'admin', after: 6, text: 'Tack för tipset, vi tittar på det!' }],
  },
  {
    business: 'ICA Maxi',
    location: 'Västerås Erikslund',
    author: 'erik',
    hoursAgo: 250,
    stars: 4,
    text: 'Storhandlade inför kalaset på lördag. Stort utbud, bra delikatessdisk och gott om parkering. Tog en stund att hitta tacoskalen bara.',
    replies: [{ author: 'sara', after: 4, text: 'Delikatessdisken där är riktigt bra, håller med.' }],
  },
  {
    business: 'Apoteket',
    location: 'Örebro',
    author: 'mohammed',
    hoursAgo: 270,
    stars: 3,
    text: 'Skulle hämta ut ett recept men läkemedlet var slut. De beställde hem det till dagen efter, så det löste sig, men lite omständligt.',
    replies: [{ author: 'anna', after: 12, text: 'Man kan kolla i appen om det finns inne innan man går, har jag märkt.' }],
  },
  {
    business: 'Coop',
    location: 'Luleå',
    author: 'johanna',
    hoursAgo: 300,
    stars: 4,
    text: 'Min vanliga butik. Bra frukt, trevliga kassörer, och medlemspoängen blir faktiskt en hel del över ett år.',
    replies: [],
  },
  {
    business: "Wayne's Coffee",
    location: 'Örebro',
    author: 'mohammed',
    hoursAgo: 320,
    stars: 4,
    text: 'Lugnt och skönt att sitta här med datorn en vardagsförmiddag. Kanelbullen var stor och nybakad.',
    replies: [{ author: 'liwei', after: 5, text: 'Kanelbulle och laptop, perfekt förmiddag.' }],
  },
  {
    business: 'Jysk',
    location: 'Sundsvall Birsta',
    author: 'oskar',
    hoursAgo: 340,
    stars: 3,
    text: 'Köpte en ny madrass till bra pris. Den var tung att få in i bilen och ingen i personalen hade tid att hjälpa till.',
    replies: [{ author: 'erik', after: 7, text: 'Fråga om hemleverans nästa gång, det kostade inte så mycket när vi köpte vår.' }],
  },
  {
    business: 'Circle K',
    location: 'Jönköping',
    author: 'oskar',
    hoursAgo: 360,
    stars: 4,
    text: 'Stannade för laddning och kaffe på väg till Stockholm. Rena toaletter och laddare som fungerade, vilket inte alla stationer kan skryta med.',
    replies: [
      { author: 'johanna', after: 3, text: 'Rena toaletter är underskattat på långresor!' },
      { author: 'anna', after: 4, text: 'Instämmer, det är det första jag tittar efter.' },
    ],
  },
  {
    business: 'ÅHLÉNS',
    location: 'Stockholm City',
    author: 'liwei',
    hoursAgo: 380,
    stars: 4,
    text: 'Köpte en present på skönhetsavdelningen och fick den fint inslagen utan extra kostnad. Trevligt bemötande.',
    replies: [{ author: 'sara', after: 6, text: 'Presentinslagningen där är alltid så snygg.' }],
  },
  {
    business: 'Hemköp',
    location: 'Lund',
    author: 'anna',
    hoursAgo: 400,
    stars: 4,
    text: 'Perfekt läge när man handlar på vägen hem. Färdigmaten räddar kvällen när man inte orkar laga något själv.',
    replies: [],
  },
  {
    business: 'NetOnNet',
    location: 'Göteborg',
    author: 'sara',
    hoursAgo: 420,
    stars: 5,
    text: 'Beställde en skärm på morgonen och kunde hämta den i lagershoppen samma eftermiddag. Enkelt och billigt.',
    replies: [
      { author: 'mohammed', after: 2, text: 'Lagershoppen är så smidig, inget väntande på leverans.' },
      { author: 'erik', after: 9, text: 'Vilken skärm blev det? Funderar själv på en ny.' },
      { author: 'sara', after: 10, text: 'En 27-tummare till hemmakontoret, jättenöjd!' },
    ],
  },
  {
    business: 'Preem',
    location: 'Luleå',
    author: 'johanna',
    hoursAgo: 440,
    stars: 3,
    text: 'Tankade och körde genom biltvätten. Tvätten var okej men missade smutsen nere vid trösklarna.',
    replies: [],
  },
  {
    business: 'Bauhaus',
    location: 'Uppsala',
    author: 'liwei',
    hoursAgo: 460,
    stars: 3,
    text: 'Stort utbud av färg och bra hjälp med att blanda rätt kulör. Svårare att hitta personal på de andra avdelningarna.',
    replies: [{ author: 'oskar', after: 6, text: 'Så är det ofta i de stora varuhusen, tyvärr.' }],
  },
  {
    business: 'Kronans Apotek',
    location: 'Sundsvall',
    author: 'oskar',
    hoursAgo: 480,
    stars: 4,
    text: 'Hämtade ut medicin åt min mamma med fullmakt. Det gick snabbt och personalen dubbelkollade allt noga.',
    replies: [],
  },
  {
    business: 'Pressbyrån',
    location: 'Stockholm Central',
    author: 'erik',
    hoursAgo: 500,
    stars: 3,
    text: 'Kaffe och en fralla innan tåget. Dyrt för vad det är, men det går snabbt.',
    replies: [{ author: 'liwei', after: 2, text: 'Det är priset man betalar för läget, antar jag.' }],
  },
  {
    business: 'Lindex',
    location: 'Göteborg Nordstan',
    author: 'sara',
    hoursAgo: 530,
    stars: 4,
    text: 'Hittade fina barnkläder på rean. Butiken var välsorterad och lätt att hitta i.',
    replies: [{ author: 'anna', after: 5, text: 'Deras barnkläder håller länge, hos oss har de ärvts i flera led.' }],
  },
  {
    business: 'KappAhl',
    location: 'Jönköping',
    author: 'oskar',
    hoursAgo: 560,
    stars: 3,
    text: 'Jeansen satt bra. Provrummen var lite slitna, men personalen var trevlig.',
    replies: [],
  },
  {
    business: 'Systembolaget',
    location: 'Lund',
    author: 'anna',
    hoursAgo: 590,
    stars: 4,
    text: 'Beställde ett vin som inte fanns i butiken och kunde hämta det tre dagar senare.',
    replies: [{ author: 'johanna', after: 12, text: 'Bra att man kan göra så!' }],
  },
  {
    business: 'IKEA',
    location: 'Umeå',
    author: 'johanna',
    hoursAgo: 610,
    stars: 4,
    text: 'Hämtade en bokhylla i självbetjäningslagret. Allt fanns på platsen som stod på lappen, och monteringen tog en timme.',
    replies: [{ author: 'liwei', after: 4, text: 'En timme! Min tog en hel kväll 😅' }],
  },
  {
    business: 'Add New',
    location: 'Hela Sverige',
    author: 'oskar',
    hoursAgo: 630,
    text: 'Det vore kul att se Jula här, de har ett stort varuhus i Jönköping.',
    replies: [
      { author: 'admin', after: 10, text: 'Bra förslag, tack! Vi lägger till det på listan.' },
      { author: 'mohammed', after: 15, text: 'Ja, Jula vore bra. Jag handlar där ofta.' },
    ],
  },
  {
    business: 'Espresso House',
    location: 'Stockholm',
    author: 'liwei',
    hoursAgo: 650,
    stars: 3,
    text: 'Kaffet var gott, men musiken var så hög att det var svårt att prata.',
    replies: [],
  },
  {
    business: 'Apotek Hjärtat',
    location: 'Lund',
    author: 'anna',
    hoursAgo: 660,
    stars: 4,
    text: 'Köpte solkräm och fick bra råd om vilken faktor som passar barn.',
    replies: [{ author: 'sara', after: 8, text: 'Skönt när de tar sig tid med sådant.' }],
  },
];

/** Businesses each demo user has marked as a favourite. */
export const demoFavorites: Partial<Record<UserKey, string[]>> = {
  anna: ['IKEA', 'Espresso House', 'Apotek Hjärtat'],
  erik: ['Clas Ohlson', 'Biltema', 'Max Hamburgerrestauranger'],
  sara: ['NetOnNet', 'Lindex'],
  mohammed: ['Biltema'],
  liwei: ['Akademibokhandeln', 'Espresso House'],
  johanna: ['Stadium', 'Systembolaget', 'Coop', 'Circle K'],
};

/**
 * A small seeded PRNG (mulberry32): the generated ratings look organic but every install gets
 * the same ones, so a problem seen in one demo can be reproduced in another.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Emoji rates skew positive, as they do on real review sites. */
export const EMOJI_RATE_POOL = [1, 2, 3, 3, 4, 4, 4, 5, 5, 5] as const;
