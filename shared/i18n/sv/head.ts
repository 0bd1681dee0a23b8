// The texts of each page's <head> (title, description, share previews), which the server writes
// into the first HTML (server/plugins/page-head.ts) and the client keeps as the tab's title.
// Kept out of the main catalog (sv.ts) so the first page's script does not carry them.
export const head = {
  home: {
    description: 'Läs vad andra tycker om vardagens butiker och tjänster i Sverige, sätt betyg och dela dina egna erfarenheter på Recensera.',
  },
  directory: {
    title: 'Alla butiker – betyg och omdömen',
    description: 'Hitta matbutiker, apotek, klädbutiker och andra vardagliga butiker i Sverige och se vad kunderna tycker om dem.',
  },
  about: { title: 'Om Recensera', description: 'Vad Recensera är, vem som står bakom och hur betyg och omdömen fungerar.' },
  contact: { title: 'Kontakta oss', description: 'Har du en fråga, ett förslag eller hittat något som inte stämmer? Skriv till Recensera.' },
  terms: { title: 'Användarvillkor', description: 'Villkoren för att använda Recensera och skriva omdömen.' },
  policy: { title: 'Integritetspolicy', description: 'Hur Recensera hanterar dina personuppgifter och cookies.' },
  login: { title: 'Logga in', description: 'Logga in på Recensera för att sätta betyg, skriva omdömen och spara favoriter.' },
  registration: { title: 'Skapa konto', description: 'Skapa ett konto på Recensera och dela dina erfarenheter av butiker och tjänster.' },
  notFound: { title: 'Sidan hittades inte', description: 'Sidan du letar efter finns inte på Recensera.' },
  gone: { title: 'Inlägget har tagits bort', description: 'Inlägget du letar efter har tagits bort av en moderator.' },
  other: { title: 'Recensera', description: 'Recensera – betyg och recensioner av vardagliga butiker och tjänster i Sverige.' },
  business: {
    /** "Åhléns – omdömen och betyg från 124 kunder". */
    title: (name: string, raters: number, count: string) =>
      raters === 0 ? `${name} – omdömen och betyg` : `${name} – omdömen och betyg från ${count} ${raters === 1 ? 'kund' : 'kunder'}`,
    /** "4,2 av 5 i betyg från 124 kunder." */
    rated: (average: string, raters: number, count: string) => `${average} av 5 i betyg från ${count} ${raters === 1 ? 'kund' : 'kunder'}.`,
    notRated: 'Inga betyg än – bli först att betygsätta.',
    suggestionBox: 'Lägg till ny',
    imageAlt: (name: string) => `Bild för ${name}`,
  },
  comment: {
    /** "Anna Svensson om Åhléns: ”Bra service …”". */
    title: (author: string, business: string, excerpt: string) => `${author} om ${business}: ”${excerpt}”`,
    description: (author: string, business: string, excerpt: string) => `${author} om ${business} på Recensera: ”${excerpt}”`,
    imageAlt: (author: string, business: string) => `Bild från ${author} om ${business}`,
  },
};
