import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBusiness } from '../../server/test/comment-fixtures';
import { bearer, callerFor, createTestApp, createTestUser, type TestContext } from '../../server/test/helpers';
import { businessCreateSchema } from './business';
import { contactInputSchema } from './common';
import { commentCreateSchema, replyCreateSchema } from './comments';
import { profileInputSchema } from './accounts';
import { withoutInvisible } from './text';

const ZWSP = '\u200B';

describe('invisible format characters', () => {
  it('are removed, except joiners inside emoji and words', () => {
    expect(withoutInvisible(ZWSP.repeat(20))).toBe('');
    expect(withoutInvisible('\u202Eabc\u202C\u2066d\u2069\uFEFF\u00AD')).toBe('abcd');
    expect(withoutInvisible('\u200D\u200C')).toBe('');
    expect(withoutInvisible('a\u200C\u200Db')).toBe('ab');
    for (const kept of ['👨‍👩‍👧', '👩🏽‍💻', '🏳️‍🌈', 'می\u200Cخواهم']) expect(withoutInvisible(kept)).toBe(kept);
    expect(withoutInvisible('🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}')).toBe('🏴');
  });

  it('take blank fillers and marks with nothing to sit on along (found by review)', () => {
    for (const blank of ['\u3164\u3164', '\uFE0F\uFE0F', '\u034F\u034F', '\u2800\u2800', '\u115F\u1160', '\u0301\u0301', ' \u0301 ', '\uFFA0x'.slice(0, 1)]) {
      expect(withoutInvisible(blank).trim(), JSON.stringify(blank)).toBe('');
    }
    // Marks on a letter, and an emoji's variation selector, stay.
    for (const kept of ['Åsa', 'e\u0301', '❤\uFE0F', 'Zoë Ö', '한글']) expect(withoutInvisible(kept)).toBe(kept);
    expect(profileInputSchema.safeParse({ firstName: '\u3164\u3164', lastName: '\u0301\u0301' }).success).toBe(false);
  });

  it('take object, control, private-use and other placeholder characters along (issue 27)', () => {
    for (const blank of [
      '\uFFFC\uFFFC',
      '\uFFFC \uFFFC',
      '\u17B4\u17B5',
      '\u180E\u180E',
      '\u{1D159}\u{1D159}',
      '\u0001\u0007',
      '\u007F\u0085\u009F',
      '\uE000\uF8FF',
      '\u{F0000}\u{10FFFD}',
      '\uFFFE\uFFFF',
      '\u{1FFFE}\uFDD0',
      '\uD800\uDC00'.slice(0, 1).repeat(2),
    ]) {
      expect(withoutInvisible(blank).trim(), JSON.stringify(blank)).toBe('');
      expect(profileInputSchema.safeParse({ firstName: blank, lastName: 'Öberg' }).success, JSON.stringify(blank)).toBe(false);
    }
    expect(withoutInvisible('Åsa\uFFFC Öberg\u0000')).toBe('Åsa Öberg');
    expect(withoutInvisible('rad ett\r\n\trad två')).toBe('rad ett\r\n\trad två');
    expect(withoutInvisible('😀 \u{1F600}')).toBe('😀 😀');
  });

  it('do not count towards the length of any user text', () => {
    const blank = `${ZWSP}${ZWSP}\u2060\u200D${ZWSP}`;
    // A field's first message, as the error replies show it.
    const fieldsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
      Object.fromEntries((result.error?.issues ?? []).toReversed().map((i) => [i.path.join('.'), i.message]));

    expect(fieldsOf(commentCreateSchema.safeParse({ businessId: 'b', text: blank, businessLocation: `${ZWSP}Lund` }))).toEqual({ text: 'commentTextRequired' });
    expect(fieldsOf(commentCreateSchema.safeParse({ businessId: 'b', text: `a${ZWSP}`, businessLocation: blank }))).toEqual({
      text: 'commentTooShort',
      businessLocation: 'commentLocationRequired',
    });
    expect(fieldsOf(replyCreateSchema.safeParse({ commentId: 'c', text: blank }))).toEqual({ text: 'replyTextRequired' });
    expect(fieldsOf(profileInputSchema.safeParse({ firstName: blank, lastName: `Ö${ZWSP}` }))).toEqual({
      firstName: 'firstNameRequired',
      lastName: 'nameTooShort',
    });
    expect(fieldsOf(contactInputSchema.safeParse({ from_name: blank, user_email: 'a@example.com', message: blank }))).toEqual({
      from_name: 'contactNameRequired',
      message: 'contactMessageRequired',
    });
    const business = businessCreateSchema.safeParse({
      title: blank,
      category: `K${ZWSP}`,
      description: blank,
      rate: 3,
      branches: [{ location: blank, address: `${ZWSP}x` }],
    });
    expect(fieldsOf(business)).toEqual({
      title: 'required',
      category: 'categoryTooShort',
      description: 'required',
      'branches.0.location': 'required',
      'branches.0.address': 'addressTooShort',
    });
  });

  it('are left out of what is stored', () => {
    const parsed = commentCreateSchema.parse({ businessId: 'b', text: `Bra\u202E ställe 👨‍👩‍👧${ZWSP}`, businessLocation: `Lund${ZWSP}` });
    expect(parsed.text).toBe('Bra ställe 👨‍👩‍👧');
    expect(parsed.businessLocation).toBe('Lund');
  });
});

describe('a comment of zero-width spaces', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMITS: '0' } });
  });
  afterAll(() => t.close());

  it('is refused by both doors', async () => {
    const user = await createTestUser(t.db);
    const shop = insertBusiness(t.db, 'Osynliga butiken');
    const viaTrpc = callerFor(t.deps, user).comments.create({ businessId: shop, text: ZWSP.repeat(10), businessLocation: 'Lund' });
    await expect(viaTrpc).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    const form = new FormData();
    form.set('text', ZWSP.repeat(10));
    form.set('businessLocation', 'Lund');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const viaRest = await t.app.inject({
      method: 'POST',
      url: `/api/comment/create/${shop}`,
      headers: { ...bearer(user), 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(viaRest.statusCode).toBe(400);
    expect(viaRest.json().errors).toEqual({ text: '*Please write a comment' });
  });
});
