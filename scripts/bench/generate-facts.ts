/**
 * The bench data set's local facts and owners (issue 31): every branch gets its town, a postal
 * code, coordinates, a phone and opening hours; every business a website and phone; a quarter of
 * the businesses (and always the popular one) get an owner who has answered two reviews in five.
 * Plain SQL over the rows generate.ts has written, so the business page and the directory search
 * are measured with what a real site has. Deterministic: picks by rowid, not by chance.
 */
import type Database from 'better-sqlite3';

const DAY_HOURS = JSON.stringify({
  weekly: [1, 2, 3, 4, 5].map((day) => ({ day, opens: '09:00', closes: '19:00' })).concat([{ day: 6, opens: '10:00', closes: '16:00' }]),
  exceptions: [{ date: '2026-12-24', periods: [], note: 'Julafton' }],
});
const LATE_HOURS = JSON.stringify({
  weekly: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, opens: '11:00', closes: '22:00' })),
  exceptions: [
    { date: '2026-12-24', periods: [{ opens: '11:00', closes: '15:00' }], note: 'Julafton' },
    { date: '2026-12-25', periods: [], note: 'Juldagen' },
  ],
});
const SHOP_HOURS = JSON.stringify({
  weekly: [1, 2, 3, 4, 5]
    .map((day) => ({ day, opens: '10:00', closes: '20:00' }))
    .concat([
      { day: 6, opens: '10:00', closes: '18:00' },
      { day: 7, opens: '11:00', closes: '17:00' },
    ]),
  exceptions: [],
});

const ANSWERS = [
  'Tack för att du tog dig tid att skriva! Vi hälsar dig välkommen tillbaka.',
  'Tack för din recension. Vi har pratat med personalen och ser över rutinerna.',
  'Vad roligt att höra! Vi skickar vidare berömmet till hela gänget.',
  'Vi beklagar att besöket inte blev som du tänkt dig. Hör gärna av dig till oss direkt.',
];

export type FactsResult = { ownedBusinesses: number; ownerReplies: number };

/** Fills facts, owners and owner replies in the caller's open database (foreign keys may be off). */
export function addFactsAndOwnerReplies(sqlite: Database.Database, opts: { businessIds: string[]; userIds: string[]; popularBusinessId: string }): FactsResult {
  return sqlite.transaction((): FactsResult => {
    sqlite.exec(`UPDATE branches SET
        town = CASE WHEN town = '' THEN location ELSE town END,
        postal_code = printf('%03d %02d', 100 + (rowid * 37) % 880, rowid % 100),
        lat = 55.4 + ((rowid * 7919) % 1000) / 1000.0 * 12.5,
        lng = 11.2 + ((rowid * 104729) % 1000) / 1000.0 * 11.5,
        phone = printf('0%d-%06d', 10 + rowid % 89, (rowid * 7193) % 1000000),
        opening_hours = CASE rowid % 3 WHEN 0 THEN '${DAY_HOURS}' WHEN 1 THEN '${LATE_HOURS}' ELSE '${SHOP_HOURS}' END`);
    sqlite.exec(`UPDATE businesses SET
        website = 'https://www.' || lower(hex(substr(id, 1, 5))) || '.example.se',
        phone = printf('0%d-%06d', 10 + rowid % 89, (rowid * 4493) % 1000000)`);

    const owner = sqlite.prepare('INSERT OR IGNORE INTO business_owners (business_id, user_id, created_at) VALUES (?, ?, ?)');
    const since = Date.now() - 200 * 86_400_000;
    let owned = 0;
    // Index 0 is the suggestion box: nobody owns it.
    opts.businessIds.forEach((id, i) => {
      if (i === 0 || (i % 4 !== 1 && id !== opts.popularBusinessId)) return;
      owned += owner.run(id, opts.userIds[(i * 7919) % opts.userIds.length], since).changes;
    });
    const answers = ANSWERS.map((t) => `'${t}'`);
    const replies = sqlite
      .prepare(
        `INSERT INTO owner_replies (comment_id, business_id, user_id, text, created_at, updated_at)
         SELECT c.id, c.business_id, o.user_id,
                CASE c.rowid % 4 WHEN 0 THEN ${answers[0]} WHEN 1 THEN ${answers[1]} WHEN 2 THEN ${answers[2]} ELSE ${answers[3]} END,
                c.created_at + 3600000 * (1 + c.rowid % 48), c.created_at + 3600000 * (1 + c.rowid % 48)
         FROM comments c JOIN business_owners o ON o.business_id = c.business_id
         WHERE c.rowid % 5 < 2 AND c.user_id <> o.user_id`,
      )
      .run().changes;
    return { ownedBusinesses: owned, ownerReplies: replies };
  })();
}
