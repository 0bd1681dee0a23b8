import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { comments } from '../../../db/schema';
import { preparedStatements } from '../../lib/prepared';

const statements = preparedStatements((db: Db) => ({
  businessOf: db
    .select({ businessId: comments.businessId })
    .from(comments)
    .where(eq(comments.id, sql.placeholder('id'))),
}));

/**
 * The business a comment is about, or null when there is no such comment: what a comment's page
 * is kept under (`business:<id>`, server/lib/data-stamp.ts), one probe of the primary key.
 */
export function businessOfComment(db: Db, id: string): string | null {
  return statements(db).businessOf.get({ id })?.businessId ?? null;
}
