/**
 * The demo directory: everyday Swedish chains, described in Swedish and English with plain
 * facts only (no claims we could not stand behind), each with branches in real towns. Branch
 * locations follow the comment form's rule (at most 2 words and 20 characters, letters and
 * digits), because demo comments name them as their location. Addresses are plausible, not
 * looked up.
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
   * The demo admin's own star rating, given when adding the business (docs/product.md §4);
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
    descriptionEn:
      "ICA Maxi is ICA's largest store format: hypermarkets, usually in retail parks outside the town centre.\n" +
      'Besides food there is a wide range of home, leisure and office goods. Every ICA store is owned and run by its own retailer.',
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
    descriptionEn:
      'Coop is a grocery chain owned by consumer co-operatives, which customers can join as members.\n' +
      'The stores come in all sizes, from local shops to hypermarkets. Members earn points and discounts when they shop.',
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
    descriptionEn: 'Willys is a discount grocery chain within Axfood. The stores carry a wide range of food and household goods, and many have self-scanning.',
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
    descriptionEn:
      'Hemköp is a chain of grocery stores within Axfood. The stores are often centrally located, with fresh produce, ready meals and an everyday range of groceries.',
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
    descriptionEn:
      'Lidl is a German discount grocery chain that has been in Sweden since 2003.\n' +
      'The range is largely its own brands. Every week there are also limited offers on things other than food, such as tools and clothes.',
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
    descriptionEn:
      'Apotek Hjärtat is a pharmacy chain within the ICA group. You collect prescription medicines here and buy over-the-counter medicines, skin care and health products.\n' +
      'The pharmacists advise on how medicines should be used.',
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
    descriptionEn:
      'Apoteket is the state-owned pharmacy company, which until the 2009 re-regulation was the only one allowed to sell medicines in Sweden.\n' +
      'Today it is one of several pharmacy chains, with pharmacies all over the country and online sales.',
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
    descriptionEn:
      'Kronans Apotek is one of the large pharmacy chains in Sweden, with pharmacies both in cities and in smaller towns.\n' +
      'It sells prescription and over-the-counter medicines as well as health and beauty products.',
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
    descriptionEn:
      'Clas Ohlson was founded in 1918 in Insjön, Dalarna, and sells hardware, electrical goods, home and leisure products.\n' +
      'The range goes from screws, batteries and lamps to kitchen utensils and garden gear.',
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
    descriptionEn:
      'Biltema sells car parts, tools, boat accessories, leisure products and household items.\n' +
      'The stores are large and usually in retail parks outside the town centre. Many also have a cafeteria.',
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
    descriptionEn:
      'Bauhaus is a German chain of stores for building, home and garden. There are building materials, tools, paint, bathrooms and plants.\n' +
      "Heavier building goods are collected at the stores' drive-in.",
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
    descriptionEn:
      'IKEA was founded by Ingvar Kamprad in Småland in 1943 and sells furniture and home furnishings that customers often assemble themselves.\n' +
      'The stores have a showroom of furnished rooms, a self-serve warehouse of flat packs and a restaurant.',
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
    description: 'Jysk är en dansk butikskedja som säljer sängar, madrasser, sängkläder, möbler och trädgårdsmöbler. Butikerna ligger oftast i handelsområden.',
    descriptionEn: 'Jysk is a Danish store chain selling beds, mattresses, bed linen, furniture and garden furniture. The stores are usually in retail parks.',
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
    descriptionEn:
      'H&M was founded in 1947 in Västerås, then under the name Hennes. The stores carry clothes for women, men and children as well as accessories and beauty products.',
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
    descriptionEn:
      'Åhléns is a Swedish department store chain with clothes, beauty, home and interiors under one roof.\n' +
      'The company was founded in 1899 as a mail-order firm by Johan Petter Åhlén and Erik Holm.',
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
    description: 'Lindex är en klädkedja som grundades i Alingsås 1954. Butikerna säljer framför allt damkläder, underkläder och barnkläder.',
    descriptionEn: "Lindex is a clothing chain founded in Alingsås in 1954. The stores mainly sell women's clothes, lingerie and children's clothes.",
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
    descriptionEn: 'KappAhl is a clothing chain founded in Gothenburg in 1953. The stores sell clothes for women, men and children.',
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
    descriptionEn:
      'Elgiganten sells consumer electronics, home appliances, computers and mobile phones, in stores and online.\n' +
      'The stores have a customer service desk that, among other things, handles complaints.',
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
    descriptionEn:
      'NetOnNet started as an online shop for consumer electronics, computers and home appliances.\n' +
      "In the chain's warehouse shops you can collect what you ordered online or buy straight from the warehouse shelves.",
    adminRate: 4,
    branches: [
      { location: 'Göteborg', address: 'Mölndalsvägen 19' },
      { location: 'Linköping', address: 'Roxviksgatan 10' },
    ],
  },
  {
    title: 'Espresso House',
    category: 'Kafé',
    description: 'Espresso House är en kafékedja som grundades i Lund 1996. Kaféerna serverar kaffe, te, smoothies, bakverk och smörgåsar.',
    descriptionEn: 'Espresso House is a coffee shop chain founded in Lund in 1996. The cafés serve coffee, tea, smoothies, pastries and sandwiches.',
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
    descriptionEn: "Wayne's Coffee is a Swedish coffee shop chain. The cafés serve coffee, pastries, salads and sandwiches.",
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
    descriptionEn:
      'Max is a Swedish hamburger chain founded in Gällivare in 1968.\n' +
      'The menu has hamburgers, fries, salads and several vegetarian options. Many restaurants have a drive-through.',
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
    descriptionEn:
      'Pressbyrån is a chain of convenience stores, often at stations and in town centres.\n' +
      'They sell coffee, newspapers, snacks and simple meals. In many stores you can also top up travel cards.',
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
    descriptionEn:
      'PostNord delivers letters and parcels in Sweden and Denmark.\n' +
      'Parcels are usually collected and dropped off at an agent, for example in a grocery store or kiosk, or at a parcel locker.',
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
    descriptionEn:
      'Circle K runs petrol stations with fuel, electric car charging, car washes and a shop with coffee and fast food.\n' +
      'In Sweden the stations used to be called Statoil.',
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
    descriptionEn:
      'Preem is a Swedish fuel company with refineries in Lysekil and Gothenburg.\n' +
      'Its petrol stations are found all over the country, many with a shop and car wash.',
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
    descriptionEn:
      'Systembolaget is the state-owned company with the sole right to sell wine, spirits and strong beer to consumers in Sweden.\n' +
      'You must be 20 or older to buy, and the staff ask for ID. The stores are closed on Sundays.',
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
    descriptionEn:
      'Stadium is a Swedish sports chain founded in Norrköping in 1974.\n' +
      'The stores sell clothes, shoes and equipment for training, team sports and outdoor life.',
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
    descriptionEn:
      'Akademibokhandeln is a nationwide bookshop chain. The stores sell books, games, office supplies and gifts, and you can order books that are not in the store.',
    adminRate: 4,
    branches: [
      { location: 'Uppsala', address: 'Svartbäcksgatan 8' },
      { location: 'Lund', address: 'Västra Mårtensgatan 1' },
      { location: 'Linköping', address: 'Ågatan 39' },
    ],
  },
];
