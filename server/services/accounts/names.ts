import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * The last name as others see it (issue 30): the user's choice `users.name_display`, 'full'
 * ("Förnamn Efternamn") or 'initial' ("Förnamn E."). Every card, reply, photo, notification,
 * JSON-LD and mail to others reads the name through this; the REST legacy field `lastName`
 * carries it (the initial with its dot), so old clients show "Förnamn E." unchanged. Only the
 * user themself (GET /api/users/{id}, users.me) and moderators' tools read the stored last name.
 */
export function shownLastName(t: { lastName: AnyColumn; nameDisplay: AnyColumn }): SQL<string> {
  return sql<string>`case when ${t.nameDisplay} = 'initial' and ${t.lastName} <> '' then upper(substr(trim(${t.lastName}), 1, 1)) || '.' else ${t.lastName} end`;
}

/** The same rule in code, for a row already read. */
export function lastNameAsShown(lastName: string, nameDisplay: 'full' | 'initial'): string {
  const first = [...lastName.trim()][0];
  return nameDisplay === 'initial' && first ? `${first.toUpperCase()}.` : lastName;
}
