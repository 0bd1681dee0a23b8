import { threadCountText } from '../../schemas/notification-constants';

/** The bell, the /notifications page and (later) the notification settings. */
export const notifications = {
  bell: (n: number) => (n === 0 ? 'Notiser' : `Notiser: ${n} olästa`),
  menuItem: 'Notiser',
  /** Read after the drawer item's visible count: "Notiser 3 olästa". */
  unreadSuffix: 'olästa',
  title: 'Notiser',
  intro: 'Svar, reaktioner och beslut om dina inlägg, förslag och ägaranspråk, nyast först.',
  loading: 'Hämtar notiser …',
  loadingMore: 'Hämtar fler …',
  loadMore: 'Visa fler',
  error: 'Notiserna kunde inte hämtas.',
  empty: 'Inga notiser än. När någon svarar på eller reagerar på det du skrivit syns det här.',
  markAllRead: 'Markera alla som lästa',
  unread: 'Oläst',
  loginRequired: 'Logga in för att se dina notiser.',
  logIn: 'Logga in',
  someone: 'Någon',
  /** Each entry's sentence; `who` is the actor's name, `place` the business. */
  text: {
    reply: (who: string, n: number, place: string) =>
      n === 1 ? `${who} svarade på din recension av ${place}` : `${threadCountText(n)} nya svar på din recension av ${place}, senast från ${who}`,
    threadReply: (who: string, n: number, place: string) =>
      n === 1 ? `${who} svarade i en tråd du deltar i om ${place}` : `${threadCountText(n)} nya svar i en tråd du deltar i om ${place}, senast från ${who}`,
    reaction: (who: string, n: number, place: string) =>
      n === 1 ? `${who} reagerade på ditt inlägg om ${place}` : `${n} personer reagerade på ditt inlägg om ${place}`,
    favoriteReview: (who: string, place: string) => `${who} skrev en ny recension av din favorit ${place}`,
    ownerReply: (_who: string, place: string) => `${place} svarade på din recension`,
    hidden: (place: string) => `Ditt inlägg om ${place} har dolts efter anmälningar och granskas av en moderator`,
    removed: (place: string) => `En moderator tog bort ditt inlägg om ${place}`,
    restored: (place: string) => `Ditt inlägg om ${place} visas igen efter granskning`,
    ownerReplyHidden: (place: string) => `Svaret från ${place} på en recension har dolts efter anmälningar och granskas av en moderator`,
    ownerReplyRemoved: (place: string) => `En moderator tog bort svaret från ${place} på en recension`,
    ownerReplyRestored: (place: string) => `Svaret från ${place} på en recension visas igen efter granskning`,
    reportRemoved: (place: string) => `Tack! Inlägget du anmälde om ${place} har tagits bort`,
    reportDismissed: (place: string) => `Inlägget du anmälde om ${place} har granskats och får ligga kvar`,
    suggestionApproved: (place: string) => `Ditt förslag ${place} godkändes och finns nu i katalogen`,
    suggestionRejected: (place: string) => `Ditt förslag ${place} godkändes inte`,
    claimApproved: (place: string) => `Du är nu ägare till ${place} och kan svara på recensioner`,
    claimRejected: (place: string) => `Din ansökan om att äga ${place} godkändes inte`,
  },
  reason: (reason: string) => `Anledning: ${reason}`,
  settings: {
    title: 'E-post om notiser',
    hint: 'Välj för varje slag: direkt (högst ett mejl per tråd i timmen), en sammanfattning om dagen eller inget. Du får inga mejl innan du har skrivit något.',
    categories: {
      replies: 'Svar till dig och i dina trådar',
      reactions: 'Reaktioner på dina inlägg',
      reviews: 'Nya recensioner av dina favoriter',
      moderation: 'Moderering av dina inlägg och anmälningar, beslut om dina förslag och ägaranspråk',
    },
    choices: { instant: 'Direkt', daily: 'En gång om dagen', off: 'Av' },
  },
};
