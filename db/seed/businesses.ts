/**
 * The demo directory: everyday Swedish chains, described with plain facts only (no claims we
 * could not stand behind), each with branches in real towns. Branch locations follow the
 * comment form's rule (at most 2 words and 20 characters, letters and digits), because demo
 * comments name them as their location. Addresses are plausible, not looked up.
 */

export type SeedBranch = { location: string; address?: string };

export type SeedBusiness = {
  title: string;
  /** The Swedish name of an entry of the category list (migration 0008 writes the list). */
  category: string;
  /** Paragraphs separated by line breaks; the business page splits on them. */
  description: string;
  /** The English description, where the demo has one (the Swedish one is shown otherwise). */
  descriptionEn?: string;
  /**
   * The demo admin's own star rating, given when adding the business (PRODUCT.md section 4);
   * the other demo users' ratings scatter around it. None for the suggestion box.
   */
  adminRate?: number;
  branches: SeedBranch[];
  /** Overrides the letters derived from the title where they would read badly. */
  monogram?: string;
  isSuggestionBox?: boolean;
};

/** Shown by the client as "Lägg till ny" in Swedish; the nav link "Add New" points here. */
export const suggestionBox: SeedBusiness = {
  title: 'Add New',
  category: 'Förslag',
  description:
    'Saknar du ett företag på Recensera? Skriv en kommentar här med företagets namn och orten där du har besökt det.\n' +
    'Vi läser alla förslag och lägger till nya företag i katalogen.',
  descriptionEn:
    "Missing a business on Recensera? Write a comment here with the business's name and the town where you visited it.\n" +
    'We read every suggestion and add new businesses to the directory.',
  branches: [{ location: 'Hela Sverige' }],
  monogram: '+',
  isSuggestionBox: true,
};

export const demoBusinesses: SeedBusiness[] = [
  {
    title: 'ICA Maxi',
    category: 'Livsmedel',
    description:
      'ICA Maxi är ICA:s största butiksformat, stormarknader som oftast ligger i handelsområden utanför stadskärnan.\n' +
      'Utöver mat finns ett brett utbud av hem-, fritids- och kontorsvaror. Varje ICA-butik ägs och drivs av en egen handlare.',
    adminRate: 4,
    branches: [
      { location: 'Västerås Erikslund', address: 'Hallsta Gårdsgata 7' },
      { location: 'Linköping Tornby', address: 'Roxviksgatan 2' },
      { location: 'Umeå', address: 'Formvägen 4' },
      { location: 'Malmö', address: 'Stadiongatan 40' },
    ],
  },
  {
    title: 'Coop',
    category: 'Livsmedel',
    description:
      'Coop är livsmedelsbutiker som ägs av konsumentföreningar, där kunderna själva kan bli medlemmar.\n' +
      'Butikerna finns i alla storlekar, från närbutiker till stormarknader. Medlemmar får poäng och rabatter när de handlar.',
    adminRate: 4,
    branches: [
      { location: 'Luleå', address: 'Storgatan 51' },
      { location: 'Uppsala Gottsunda', address: 'Valthornsvägen 1' },
      { location: 'Sundsvall', address: 'Esplanaden 14' },
    ],
  },
  {
    title: 'Willys',
    category: 'Livsmedel',
    description:
      'Willys är en lågpriskedja för livsmedel som ingår i Axfood. Butikerna har ett brett sortiment av mat och hushållsvaror och många har självskanning.',
    adminRate: 4,
    branches: [
      { location: 'Göteborg Järntorget', address: 'Första Långgatan 2' },
      { location: 'Örebro', address: 'Boglundsängen 2' },
      { location: 'Jönköping', address: 'Herkulesvägen 12' },
    ],
  },
  {
    title: 'Hemköp',
    category: 'Livsmedel',
    description:
      'Hemköp är en kedja av livsmedelsbutiker som ingår i Axfood. Butikerna ligger ofta centralt i städerna, med färskvaror, färdigmat och ett vanligt sortiment av dagligvaror.',
    adminRate: 4,
    branches: [
      { location: 'Stockholm City', address: 'Klarabergsgatan 50' },
      { location: 'Lund', address: 'Mårtenstorget 2' },
    ],
  },
  {
    title: 'Lidl',
    category: 'Livsmedel',
    description:
      'Lidl är en tysk lågpriskedja för livsmedel som har funnits i Sverige sedan 2003.\n' +
      'Sortimentet består till stor del av egna märken. Varje vecka kommer också tillfälliga erbjudanden på annat än mat, till exempel verktyg och kläder.',
    adminRate: 3,
    branches: [
      { location: 'Malmö', address: 'Lantmannagatan 46' },
      { location: 'Uppsala', address: 'Kungsgatan 89' },
      { location: 'Västerås', address: 'Stenbygatan 6' },
    ],
  },
  {
    title: 'Apotek Hjärtat',
    category: 'Apotek',
    description:
      'Apotek Hjärtat är en apotekskedja som ingår i ICA-gruppen. Här hämtar man ut receptbelagda läkemedel och köper receptfria läkemedel, hudvård och hälsoprodukter.\n' +
      'Farmaceuterna ger råd om hur läkemedel ska användas.',
    adminRate: 4,
    branches: [
      { location: 'Göteborg Nordstan', address: 'Nordstadstorget 6' },
      { location: 'Umeå', address: 'Kungsgatan 52' },
      { location: 'Lund', address: 'Stortorget 8' },
    ],
  },
  {
    title: 'Apoteket',
    category: 'Apotek',
    description:
      'Apoteket är det statligt ägda apoteksbolaget, som fram till omregleringen 2009 ensamt sålde läkemedel i Sverige.\n' +
      'I dag är det en av flera apotekskedjor, med apotek i hela landet och e-handel.',
    adminRate: 4,
    branches: [
      { location: 'Stockholm', address: 'Drottninggatan 45' },
      { location: 'Örebro', address: 'Drottninggatan 9' },
      { location: 'Luleå', address: 'Storgatan 27' },
    ],
  },
  {
    title: 'Kronans Apotek',
    category: 'Apotek',
    description:
      'Kronans Apotek är en av de stora apotekskedjorna i Sverige, med apotek både i städer och på mindre orter.\n' +
      'Där säljs receptbelagda och receptfria läkemedel samt hälso- och skönhetsprodukter.',
    adminRate: 4,
    branches: [
      { location: 'Jönköping', address: 'Östra Storgatan 20' },
      { location: 'Sundsvall', address: 'Storgatan 18' },
    ],
  },
  {
    title: 'Clas Ohlson',
    category: 'Järnhandel',
    description:
      'Clas Ohlson grundades 1918 i Insjön i Dalarna och säljer järnhandel, el, hem och fritid.\n' +
      'Sortimentet spänner från skruv, batterier och lampor till köksredskap och trädgårdsprylar.',
    adminRate: 4,
    branches: [
      { location: 'Västerås City', address: 'Stora Gatan 30' },
      { location: 'Göteborg', address: 'Kungsgatan 44' },
      { location: 'Umeå', address: 'Renmarkstorget 8' },
    ],
  },
  {
    title: 'Biltema',
    category: 'Bil och fritid',
    description:
      'Biltema säljer bildelar, verktyg, båttillbehör, fritidsprodukter och hushållsartiklar.\n' +
      'Varuhusen är stora och ligger oftast i handelsområden utanför stadskärnan. Många har också en kafeteria.',
    adminRate: 4,
    branches: [
      { location: 'Linköping', address: 'Roxengatan 7' },
      { location: 'Örebro', address: 'Bettorpsgatan 4' },
      { location: 'Luleå', address: 'Backvägen 10' },
    ],
  },
  {
    title: 'Bauhaus',
    category: 'Bygg och trädgård',
    description:
      'Bauhaus är en tysk kedja av varuhus för bygg, hem och trädgård. Här finns byggmaterial, verktyg, färg, badrum och växter.\n' +
      'Tyngre byggvaror hämtar man i varuhusens drive-in.',
    adminRate: 3,
    branches: [
      { location: 'Malmö Svågertorp', address: 'Svågertorpsvägen 2' },
      { location: 'Uppsala', address: 'Stångjärnsgatan 8' },
    ],
  },
  {
    title: 'IKEA',
    category: 'Möbler och inredning',
    description:
      'IKEA grundades av Ingvar Kamprad i Småland 1943 och säljer möbler och heminredning som kunden ofta monterar själv.\n' +
      'Varuhusen har en utställning med inredda rum, ett självbetjäningslager med platta paket och en restaurang.',
    adminRate: 4,
    branches: [
      { location: 'Kungens Kurva', address: 'Kungens Kurvaleden 1' },
      { location: 'Göteborg Bäckebol', address: 'Bäckebolsvägen 1' },
      { location: 'Uppsala', address: 'Bärbyleden 2' },
      { location: 'Umeå', address: 'Marknadsgatan 2' },
    ],
  },
  {
    title: 'Jysk',
    category: 'Möbler och inredning',
    description:
      'Jysk är en dansk butikskedja som säljer sängar, madrasser, sängkläder, möbler och trädgårdsmöbler. Butikerna ligger oftast i handelsområden.',
    adminRate: 3,
    branches: [
      { location: 'Sundsvall Birsta', address: 'Birstavägen 30' },
      { location: 'Jönköping', address: 'Solåsvägen 4' },
    ],
  },
  {
    title: 'H&M',
    category: 'Kläder',
    description:
      'H&M grundades 1947 i Västerås, då under namnet Hennes. I butikerna finns kläder för dam, herr och barn samt accessoarer och skönhetsprodukter.',
    adminRate: 4,
    branches: [
      { location: 'Västerås City', address: 'Stora Gatan 34' },
      { location: 'Stockholm', address: 'Drottninggatan 56' },
      { location: 'Malmö', address: 'Södergatan 13' },
    ],
  },
  {
    title: 'ÅHLÉNS',
    category: 'Varuhus',
    description:
      'Åhléns är en svensk varuhuskedja med kläder, skönhet, hem och inredning under samma tak.\n' +
      'Företaget grundades 1899 som postorderfirma av Johan Petter Åhlén och Erik Holm.',
    adminRate: 4,
    branches: [
      { location: 'Stockholm City', address: 'Klarabergsgatan 50' },
      { location: 'Uppsala', address: 'Stora Torget 1' },
      { location: 'Linköping', address: 'Ågatan 43' },
    ],
  },
  {
    title: 'Lindex',
    category: 'Kläder',
    description:
      'Lindex är en klädkedja som grundades i Alingsås 1954. Butikerna säljer framför allt damkläder, underkläder och barnkläder.',
    adminRate: 4,
    branches: [
      { location: 'Göteborg Nordstan', address: 'Nordstadstorget 10' },
      { location: 'Örebro', address: 'Drottninggatan 18' },
    ],
  },
  {
    title: 'KappAhl',
    category: 'Kläder',
    description: 'KappAhl är en klädkedja som grundades i Göteborg 1953. Butikerna säljer kläder för dam, herr och barn.',
    adminRate: 3,
    branches: [
      { location: 'Luleå', address: 'Storgatan 38' },
      { location: 'Jönköping', address: 'Klostergatan 25' },
    ],
  },
  {
    title: 'Elgiganten',
    category: 'Elektronik',
    description:
      'Elgiganten säljer hemelektronik, vitvaror, datorer och mobiltelefoner, i varuhus och på nätet.\n' +
      'Varuhusen har en kundservice som bland annat tar emot reklamationer.',
    adminRate: 3,
    branches: [
      { location: 'Malmö Hyllie', address: 'Hyllie Stationstorg 2' },
      { location: 'Västerås Erikslund', address: 'Krämarevägen 2' },
      { location: 'Sundsvall Birsta', address: 'Birstavägen 25' },
    ],
  },
  {
    title: 'NetOnNet',
    category: 'Elektronik',
    description:
      'NetOnNet började som näthandel för hemelektronik, datorer och vitvaror.\n' +
      'I kedjans lagershoppar kan man hämta det man beställt på nätet eller handla direkt från lagerhyllorna.',
    adminRate: 4,
    branches: [
      { location: 'Göteborg', address: 'Mölndalsvägen 19' },
      { location: 'Linköping', address: 'Roxviksgatan 10' },
    ],
  },
  {
    title: 'Espresso House',
    category: 'Kafé',
    description:
      'Espresso House är en kafékedja som grundades i Lund 1996. Kaféerna serverar kaffe, te, smoothies, bakverk och smörgåsar.',
    adminRate: 4,
    branches: [
      { location: 'Lund', address: 'Stora Södergatan 6' },
      { location: 'Malmö', address: 'Gustav Adolfs Torg 6' },
      { location: 'Uppsala', address: 'Svartbäcksgatan 3' },
      { location: 'Stockholm', address: 'Drottninggatan 63' },
    ],
  },
  {
    title: "Wayne's Coffee",
    category: 'Kafé',
    description: "Wayne's Coffee är en svensk kafékedja. Kaféerna serverar kaffe, bakverk, sallader och smörgåsar.",
    adminRate: 4,
    monogram: 'W',
    branches: [
      { location: 'Örebro', address: 'Stortorget 4' },
      { location: 'Sundsvall', address: 'Storgatan 10' },
    ],
  },
  {
    title: 'Max Hamburgerrestauranger',
    category: 'Snabbmat',
    description:
      'Max är en svensk hamburgerkedja som grundades i Gällivare 1968.\n' +
      'Menyn har hamburgare, pommes frites, sallader och flera vegetariska alternativ. Många restauranger har drive-in.',
    adminRate: 4,
    monogram: 'M',
    branches: [
      { location: 'Luleå', address: 'Storgatan 33' },
      { location: 'Umeå', address: 'Västra Esplanaden 1' },
      { location: 'Göteborg', address: 'Drottninggatan 42' },
    ],
  },
  {
    title: 'Pressbyrån',
    category: 'Servicebutik',
    description:
      'Pressbyrån är en kedja av servicebutiker, ofta vid stationer och i stadskärnor.\n' +
      'Här finns kaffe, tidningar, snacks och enklare mat. I många butiker kan man också ladda reskort.',
    adminRate: 3,
    branches: [
      { location: 'Stockholm Central', address: 'Centralplan 15' },
      { location: 'Göteborg Central', address: 'Drottningtorget 5' },
      { location: 'Uppsala', address: 'Kungsgatan 3' },
    ],
  },
  {
    title: 'PostNord',
    category: 'Post och paket',
    description:
      'PostNord delar ut brev och paket i Sverige och Danmark.\n' +
      'Paket hämtar och lämnar man oftast hos ett ombud, till exempel i en livsmedelsbutik eller kiosk, eller i ett paketskåp.',
    adminRate: 3,
    branches: [
      { location: 'Västerås', address: 'Sigurdsgatan 21' },
      { location: 'Linköping', address: 'Storgatan 25' },
      { location: 'Umeå', address: 'Skolgatan 62' },
    ],
  },
  {
    title: 'Circle K',
    category: 'Drivmedel',
    description:
      'Circle K driver bensinstationer med drivmedel, laddning för elbil, biltvätt och en butik med kaffe och snabbmat.\n' +
      'I Sverige hette stationerna tidigare Statoil.',
    adminRate: 4,
    branches: [
      { location: 'Jönköping', address: 'Ryhovsgatan 2' },
      { location: 'Örebro', address: 'Västhagagatan 1' },
      { location: 'Sundsvall', address: 'Skönsbergsvägen 1' },
    ],
  },
  {
    title: 'Preem',
    category: 'Drivmedel',
    description:
      'Preem är ett svenskt drivmedelsbolag med raffinaderier i Lysekil och Göteborg.\n' +
      'Bolagets bensinstationer finns över hela landet, många med butik och biltvätt.',
    adminRate: 4,
    branches: [
      { location: 'Luleå', address: 'Banvägen 8' },
      { location: 'Västerås', address: 'Hallsta Gårdsgata 2' },
    ],
  },
  {
    title: 'Systembolaget',
    category: 'Vin och sprit',
    description:
      'Systembolaget är det statliga bolag som ensamt får sälja vin, sprit och starköl till konsumenter i Sverige.\n' +
      'Man måste ha fyllt 20 år för att handla, och personalen frågar efter legitimation. Butikerna har stängt på söndagar.',
    adminRate: 4,
    branches: [
      { location: 'Lund', address: 'Mårtenstorget 4' },
      { location: 'Göteborg', address: 'Kungsgatan 26' },
      { location: 'Umeå', address: 'Kungsgatan 48' },
    ],
  },
  {
    title: 'Stadium',
    category: 'Sport',
    description:
      'Stadium är en svensk sportkedja som grundades i Norrköping 1974.\n' +
      'Butikerna säljer kläder, skor och utrustning för träning, lagidrott och friluftsliv.',
    adminRate: 4,
    branches: [
      { location: 'Umeå', address: 'Kungsgatan 58' },
      { location: 'Stockholm', address: 'Hamngatan 37' },
      { location: 'Jönköping', address: 'Barnarpsgatan 24' },
    ],
  },
  {
    title: 'Akademibokhandeln',
    category: 'Böcker',
    description:
      'Akademibokhandeln är en rikstäckande bokhandelskedja. Butikerna säljer böcker, spel, kontorsmaterial och presenter, och man kan beställa böcker som inte finns i butiken.',
    adminRate: 4,
    branches: [
      { location: 'Uppsala', address: 'Svartbäcksgatan 8' },
      { location: 'Lund', address: 'Västra Mårtensgatan 1' },
      { location: 'Linköping', address: 'Ågatan 39' },
    ],
  },
];
