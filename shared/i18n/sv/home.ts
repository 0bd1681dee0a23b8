export const home = {
  welcome: {
    eyebrow: 'Omdömen från riktiga kunder',
    title: 'Välkommen till Recensera',
    browseAll: 'Visa alla butiker',
    join: 'Skapa ett gratis konto',
  },
  chooser: {
    label: 'Hitta en butik',
    placeholder: 'Skriv eller välj en butik',
    hint: 'Skriv en del av namnet eller bläddra bland alla butiker på Recensera.',
    openList: 'Visa listan med butiker',
    clear: 'Rensa',
    noMatch: 'Ingen butik matchar det du skrev',
    none: 'Det finns inga butiker ännu',
    loading: 'Hämtar butiker...',
    error: 'Butikerna kunde inte hämtas just nu.',
    /** The last option when the search finds more than the list shows: the directory with the same search. */
    allMatches: (count: string) => `Visa alla ${count} träffar i katalogen`,
    /** The same without a search: the directory. */
    allStores: (count: string) => `Visa alla ${count} butiker i katalogen`,
  },
  carousel: {
    heading: 'Butiker på Recensera',
    roleDescription: 'karusell',
    slideRoleDescription: 'bild',
    slideLabel: (n: number, total: number) => `${n} av ${total}`,
    previous: 'Föregående butiker',
    next: 'Nästa butiker',
    pause: 'Pausa bildspelet',
    play: 'Starta bildspelet',
    empty: 'Här visas butikerna så snart de första har lagts till.',
  },
  trust: {
    heading: 'Varför lita på oss',
    mission:
      'Vårt uppdrag är enkelt: att göra vardagens val lättare genom ärliga omdömen från människor som faktiskt har varit där. Inga köpta recensioner och inga reklamtexter – bara erfarenheter från vår community.',
    realFeedback: {
      title: 'Äkta omdömen',
      text: 'Varje kommentar skrivs av en registrerad användare med bekräftad e-postadress, och du ser vem som har skrivit den.',
    },
    dailyInsights: {
      title: 'Nya insikter varje dag',
      text: 'Communityn delar nya erfarenheter hela tiden, så du får veta hur det är i butiken i dag – inte för flera år sedan.',
    },
    communityPicks: {
      title: 'Communityns favoriter',
      text: 'Betygen är ett genomsnitt av användarnas röster, och de mest uppskattade inläggen lyfts fram av användarna själva.',
    },
    claimText: (n: number) =>
      n === 1 ? 'butik eller tjänst finns redan här – och fler tillkommer.' : 'av Sveriges butiker och tjänster finns redan här – och fler tillkommer.',
    claimLoading: 'Butikerna räknas...',
    claimNone: 'Recensera har precis öppnat. De första butikerna läggs till inom kort – titta gärna in igen snart!',
  },
  features: {
    heading: 'Det här kan du göra',
    stars: {
      title: 'Sätt betyg',
      text: 'Ge en butik ett till fem stjärnor. Betygsätter du igen ersätter det nya betyget det gamla.',
    },
    photos: {
      title: 'Kommentera med bild',
      text: 'Berätta om ditt besök, ange vilken butik på vilken ort det gällde och lägg gärna till ett foto.',
    },
    reactions: {
      title: 'Reagera på inlägg',
      text: 'Reagera på andras kommentarer och svar med en av fem emojier, från arg till förtjust. Reaktionerna är något annat än stjärnorna du ger en butik.',
    },
    replies: {
      title: 'Svara och diskutera',
      text: 'Ställ följdfrågor, ge tips och svara på andras kommentarer.',
    },
    favorites: {
      title: 'Spara favoriter',
      text: 'Samla butikerna du gillar på ett ställe och hitta snabbt tillbaka till dem.',
    },
    search: {
      title: 'Sök på ort',
      text: 'Hitta kommentarer om just din butik genom att söka på ort, text eller namn.',
    },
  },
  faq: {
    heading: 'Hjälp och vanliga frågor',
    howToReview: {
      question: 'Hur lämnar jag ett omdöme?',
      answer: 'Skapa ett konto och bekräfta din e-postadress. Välj sedan en butik, skriv vad du tycker och lägg gärna till bilder från ditt besök.',
    },
    editReview: {
      question: 'Kan jag ändra eller ta bort mitt omdöme?',
      answer: 'Ja. Du kan när som helst redigera eller ta bort dina egna kommentarer och svar.',
    },
    ratings: {
      question: 'Hur räknas betygen ut?',
      answer: 'En butiks betyg är genomsnittet av de betyg som användarna har gett den.',
    },
    rateOthers: {
      question: 'Kan jag betygsätta andras inlägg?',
      answer:
        'Ja. Användarna reagerar på varandras kommentarer och svar med fem emojier (reaktioner), så att de mest hjälpsamma inläggen syns tydligast. Reaktionerna räknas inte in i butikens betyg.',
    },
  },
} as const;
