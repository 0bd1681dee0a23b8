import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOnlyCommentFields, clientOnlyPostFields, commentCardSchema, replyCardSchema } from '../../shared/schemas/post-cards';
import { createComment } from '../services/comments/comments';
import { createReply } from '../services/comments/replies';
import { insertBusiness, pngBytes } from '../test/comment-fixtures';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext, type TestUser } from '../test/helpers';
import { restCommentSchema, restReplySchema } from './comment-documents';

/** Issue 28, item 5: a comment's and a reply's shape are declared once, in shared/schemas/post-cards.ts. */
let t: TestContext;
let anna: TestUser;
let commentId: string;
let businessId: string;

beforeAll(async () => {
  t = await createTestApp();
  anna = await createTestUser(t.db, { firstName: 'Anna', lastName: 'Andersson' });
  businessId = insertBusiness(t.db);
  commentId = (
    await createComment(t.deps, anna.actor, { businessId, text: 'Trevlig personal', businessLocation: 'Lund', rate: 4, imageBytes: await pngBytes() })
  )._id;
  await createReply(t.deps, anna.actor, { commentId, text: 'Håller med!' });
});
afterAll(() => t.close());

const keys = (o: object) => Object.keys(o);
const without = (all: string[], left: object) => all.filter((k) => !(k in left));

describe('cards and their REST documents', () => {
  it('builds cards with exactly the fields their schema declares, of the declared types', async () => {
    const caller = callerFor(t.deps, anna);
    const comment = await caller.comments.byId({ id: commentId });
    expect(() => commentCardSchema.strict().parse(comment)).not.toThrow();
    const replies = await caller.comments.replies({ commentId });
    expect(replies.items).toHaveLength(1);
    expect(() => replyCardSchema.strict().parse(replies.items[0])).not.toThrow();
  });

  it('documents every card field but the client-only ones, in the card order, ratings after emojiCounts', () => {
    const base = (card: object, clientOnly: object) => {
      const fields = without(keys(card), clientOnly);
      fields.splice(fields.indexOf('emojiCounts') + 1, 0, 'ratings');
      return fields;
    };
    expect(keys(restCommentSchema.shape)).toEqual([...base(commentCardSchema.shape, clientOnlyCommentFields), 'subComments']);
    expect(keys(restReplySchema.shape)).toEqual([...base(replyCardSchema.shape, clientOnlyPostFields), 'isConfirmed']);
  });

  it('writes a REST comment and its replies with the documented fields in the documented order', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/comment/${businessId}`, headers: bearer(anna) });
    expect(res.statusCode).toBe(200);
    const [doc] = res.json<Record<string, unknown>[]>();
    expect(keys(doc)).toEqual(keys(restCommentSchema.shape));
    const [reply] = doc.subComments as Record<string, unknown>[];
    expect(keys(reply)).toEqual(keys(restReplySchema.shape));
    expect(doc).toMatchObject({ text: 'Trevlig personal', authorRate: 4, firstName: 'Anna', ratings: [], replyCount: 1 });
    expect(doc).not.toHaveProperty('reportedByMe');
  });
});
