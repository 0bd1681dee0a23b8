import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages } from '../../db/schema';
import { bearer, createCast, createTestApp, type TestContext } from '../test/helpers';

// Issue 29 item 12: the contact messages the form stores reach the admins in an inbox, through
// REST and tRPC, newest first, a page at a time, read or unread.

let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  t.deps.limits.reset();
  t.db.delete(contactMessages).run();
  cast = await createCast(t.db);
});

const json = { 'content-type': 'application/json' };
const trpcQuery = (path: string, headers: Record<string, string>, input?: object) =>
  t.app.inject({ method: 'GET', url: `/trpc/${path}${input ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ''}`, headers });
const trpcMutation = (path: string, headers: Record<string, string>, input: object) =>
  t.app.inject({ method: 'POST', url: `/trpc/${path}`, headers: { ...json, ...headers }, payload: JSON.stringify(input) });

/** Five stored messages a minute apart, the newest last. */
function storeFive() {
  const base = Date.UTC(2026, 10, 1, 12);
  for (let i = 0; i < 5; i++)
    t.db
      .insert(contactMessages)
      .values({
        id: `msg-${i}`,
        fromName: `Avsändare ${i}`,
        userEmail: `a${i}@example.se`,
        message: `Meddelande ${i}`,
        language: 'sv',
        createdAt: base + i * 60_000,
      })
      .run();
}

describe('the contact inbox', () => {
  it('shows what the form stored to admins only (REST and tRPC)', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: json,
      payload: { from_name: 'Nina', user_email: 'nina@example.com', message: 'Hej! Öppettiderna stämmer inte.' },
    });
    expect(sent.statusCode).toBe(201);
    for (const w of ['owner', 'banned'] as const)
      expect((await t.app.inject({ method: 'GET', url: '/api/contact-messages', headers: bearer(cast[w]) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/contact-messages' })).statusCode).toBe(401);
    expect((await trpcQuery('site.contactMessages', bearer(cast.owner))).statusCode).toBe(403);

    const rest = await t.app.inject({ method: 'GET', url: '/api/contact-messages', headers: bearer(cast.admin) });
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toMatchObject({
      unread: 1,
      nextCursor: null,
      items: [{ fromName: 'Nina', email: 'nina@example.com', message: 'Hej! Öppettiderna stämmer inte.', readAt: null, mailedAt: null }],
    });
    const trpc = await trpcQuery('site.contactMessages', bearer(cast.admin));
    expect(trpc.json().result.data.items[0]._id).toBe(rest.json().items[0]._id);
  });

  it('pages newest first through both doors', async () => {
    storeFive();
    const first = await t.app.inject({ method: 'GET', url: '/api/contact-messages?limit=2', headers: bearer(cast.admin) });
    expect(first.json().items.map((m: { _id: string }) => m._id)).toEqual(['msg-4', 'msg-3']);
    expect(first.headers['x-next-cursor']).toBe(first.json().nextCursor);
    const second = await t.app.inject({ method: 'GET', url: `/api/contact-messages?limit=2&cursor=${first.json().nextCursor}`, headers: bearer(cast.admin) });
    expect(second.json().items.map((m: { _id: string }) => m._id)).toEqual(['msg-2', 'msg-1']);
    const last = await trpcQuery('site.contactMessages', bearer(cast.admin), { limit: 2, cursor: second.json().nextCursor });
    expect(last.json().result.data).toMatchObject({ items: [{ _id: 'msg-0' }], nextCursor: null, unread: 5 });
    expect((await t.app.inject({ method: 'GET', url: '/api/contact-messages?cursor=nonsense', headers: bearer(cast.admin) })).statusCode).toBe(400);
  });

  it('marks messages read and unread; the unread filter and count follow', async () => {
    storeFive();
    const read = await t.app.inject({ method: 'PUT', url: '/api/contact-messages/msg-4/read', headers: bearer(cast.admin), payload: { read: true } });
    expect(read.statusCode).toBe(200);
    expect(read.json().readAt).toEqual(expect.any(String));
    expect((await trpcMutation('site.setContactRead', bearer(cast.admin), { id: 'msg-3', read: true })).statusCode).toBe(200);
    const unread = await t.app.inject({ method: 'GET', url: '/api/contact-messages?unread=true', headers: bearer(cast.admin) });
    expect(unread.json().unread).toBe(3);
    expect(unread.json().items.map((m: { _id: string }) => m._id)).toEqual(['msg-2', 'msg-1', 'msg-0']);
    expect((await trpcMutation('site.setContactRead', bearer(cast.admin), { id: 'msg-3', read: false })).json().result.data.readAt).toBeNull();
    expect((await trpcQuery('site.contactMessages', bearer(cast.admin), { unread: true })).json().result.data.unread).toBe(4);
  });

  it('refuses others (403) and an unknown id (404)', async () => {
    storeFive();
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/contact-messages/msg-1/read', headers: bearer(cast.owner), payload: { read: true } })).statusCode,
    ).toBe(403);
    expect((await trpcMutation('site.setContactRead', bearer(cast.owner), { id: 'msg-1', read: true })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'PUT', url: '/api/contact-messages/nope/read', headers: bearer(cast.admin), payload: { read: true } })).statusCode,
    ).toBe(404);
  });

  it('walks an index for the page and the unread count', () => {
    const sqlite = t.deps.db.$client;
    const plan = (query: string) => (sqlite.prepare(`explain query plan ${query}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ');
    expect(plan('select * from contact_messages order by created_at desc, rowid desc limit 26')).toMatch(/USING INDEX contact_messages_created_at_idx/);
    expect(plan('select count(*) from contact_messages where read_at is null')).toMatch(/contact_messages_unread_idx/);
    expect(plan('select * from contact_messages where read_at is null order by created_at desc, rowid desc limit 26')).toMatch(/contact_messages_unread_idx/);
  });
});
