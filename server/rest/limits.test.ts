import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { users } from '../../db/schema';
import { insertBusiness, pngBytes } from '../test/comment-fixtures';
import { createComment } from '../services/comments/comments';
import { createReply } from '../services/comments/replies';
import { bearer, createCast, createTestApp, createTestUser, type TestContext, pngForm } from '../test/helpers';
import { bodyDeadlines, multipartSlotStats, networkOf, visitorSlotStats } from './images';

/** Issue 15, items 4 (multipart bodies), 5 (image writes) and 6 (cheap writes). */
let t: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let shop: string;

beforeAll(async () => {
  // One proxy hop: X-Forwarded-For makes each test visitor an IP of its own.
  t = await createTestApp({ env: { TRUST_PROXY: '1' } });
  cast = await createCast(t.db);
  shop = insertBusiness(t.db, 'Konsum');
});
afterAll(() => t.close());
beforeEach(() => t.deps.limits.reset());

const registration = { firstName: 'Nina', lastName: 'Nyberg', password: 'Secret-pass-123', confirmPassword: 'Secret-pass-123' };

/** A registration (or, with a token, a comment) whose body never finishes arriving. */
const stall = (port: string, sockets: net.Socket[], ip: string, token?: string) => {
  const socket = net.connect(Number(port), '127.0.0.1');
  sockets.push(socket);
  let received = '';
  const head = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) resolve(received);
    });
    socket.on('error', () => resolve(received));
    socket.on('close', () => resolve(received));
  });
  const target = token ? `/api/comment/create/${shop}` : '/api/users/register';
  socket.write(
    `POST ${target} HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n` +
      `${token ? `Authorization: Bearer ${token}\r\n` : ''}` +
      `Content-Length: 1000000\r\nX-Forwarded-For: ${ip}\r\n\r\n--b\r\nContent-Disposition: form-data; name="firstName"\r\n\r\nAd`,
  );
  return head;
};

describe('multipart bodies (item 4)', () => {
  it('refuses a file in a field the route does not take, and registers nobody', async () => {
    const email = 'extra-part@example.com';
    const body = await pngForm({ ...registration, email }, { a: await pngBytes() });
    const res = await t.app.inject({ method: 'POST', url: '/api/users/register', ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ a: 'Invalid input.' });
    expect(t.db.select().from(users).where(eq(users.email, email)).get()).toBeUndefined();

    const comment = await pngForm({ text: 'Fina priser', businessLocation: 'Lund' }, { avatar: await pngBytes() });
    const posted = await t.app.inject({
      method: 'POST',
      url: `/api/comment/create/${shop}`,
      headers: { ...comment.headers, ...bearer(cast.owner) },
      payload: comment.payload,
    });
    expect(posted.statusCode).toBe(400);
  });

  it('counts visitors by network: an IPv4 /24, an IPv6 /64', () => {
    expect(networkOf('198.51.100.7')).toBe('198.51.100.0/24');
    expect(networkOf('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
    expect(networkOf('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
  });

  it("counts the sender's limit before reading the body", async () => {
    // The fields are invalid, so a body that was read answers 400; only a count made first can say 429.
    const body = await pngForm({ firstName: 'x' });
    const headers = { ...body.headers, 'x-forwarded-for': '198.51.100.20' };
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) statuses.push((await t.app.inject({ method: 'POST', url: '/api/users/register', headers, payload: body.payload })).statusCode);
    expect(statuses.slice(0, 40).every((s) => s === 400)).toBe(true);
    expect(statuses[40]).toBe(429);
  });

  it('reads a few bodies at a time, queues a few more and turns the rest away with Retry-After', async () => {
    const { port } = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const sockets: net.Socket[] = [];
    const stalled = (ip: string, token?: string) => stall(port, sockets, ip, token);
    // These bodies stall on purpose; the minimum rate (tested below) must not cut them here.
    const saved = { ...bodyDeadlines };
    bodyDeadlines.graceMs = 60_000;
    try {
      // Visitors: two slots, one per network (/24); 198.51.100.1 and .2 are one network.
      for (const ip of ['198.51.100.1', '198.51.100.2', '203.0.113.1']) void stalled(ip);
      await vi.waitFor(() => expect(visitorSlotStats()).toEqual({ running: 2, waiting: 1 }));
      // Two waiting places per network: the third of one is told to slow down.
      void stalled('198.51.100.3');
      await vi.waitFor(() => expect(visitorSlotStats()).toEqual({ running: 2, waiting: 2 }));
      const ownQueueFull = await stalled('198.51.100.4');
      expect(ownQueueFull).toMatch(/^HTTP\/1\.1 429/);
      expect(ownQueueFull).toMatch(/\r\nretry-after: 5\r\n/i);
      // Eight waiting places in all: past them everyone is told the server is busy.
      for (const ip of ['192.0.2.1', '198.18.0.1', '198.19.0.1']) for (let i = 0; i < 2; i++) void stalled(ip);
      await vi.waitFor(() => expect(visitorSlotStats()).toEqual({ running: 2, waiting: 8 }));
      const busy = await stalled('100.64.0.1');
      expect(busy).toMatch(/^HTTP\/1\.1 503/);
      expect(busy).toMatch(/\r\nretry-after: 5\r\n/i);

      // Signed-in users have four slots of their own, one per user and two per network, which no visitor can take.
      for (let i = 0; i < 3; i++) void stalled('198.51.100.9', cast.owner.token);
      void stalled('198.51.100.9', cast.other.token);
      await vi.waitFor(() => expect(multipartSlotStats()).toEqual({ running: 2, waiting: 2 }));
      const comment = await pngForm({ text: 'Går fort ändå', businessLocation: 'Lund' });
      const posted = await t.app.inject({
        method: 'POST',
        url: `/api/comment/create/${shop}`,
        headers: { ...comment.headers, ...bearer(cast.admin) },
        payload: comment.payload,
      });
      expect(posted.statusCode).toBe(201);
    } finally {
      Object.assign(bodyDeadlines, saved);
      for (const socket of sockets) socket.destroy();
    }
    // Clients that went away give their slots and places back.
    await vi.waitFor(() =>
      expect([multipartSlotStats(), visitorSlotStats()]).toEqual([
        { running: 0, waiting: 0 },
        { running: 0, waiting: 0 },
      ]),
    );
    const after = await pngForm({ firstName: 'x' });
    expect((await t.app.inject({ method: 'POST', url: '/api/users/register', ...after })).statusCode).toBe(400);
  });

  it('cuts a body that stops arriving and gives its slot back', async () => {
    const { port } = new URL(
      await t.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`),
    );
    const sockets: net.Socket[] = [];
    const saved = { ...bodyDeadlines };
    bodyDeadlines.idleMs = 300;
    try {
      const closed = stall(port, sockets, '203.0.113.50');
      await closed;
      expect(sockets[0].destroyed || sockets[0].readableEnded).toBe(true);
      await vi.waitFor(() => expect(visitorSlotStats()).toEqual({ running: 0, waiting: 0 }));
    } finally {
      Object.assign(bodyDeadlines, saved);
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe('slow uploads (issue 27, item 6)', () => {
  const listening = async () =>
    Number(
      new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }).catch(() => `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`)).port,
    );

  /** A registration whose body arrives a few bytes at a time, forever. */
  const trickle = (port: number, ip: string, sockets: net.Socket[], timers: NodeJS.Timeout[]) => {
    const socket = net.connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.on('error', () => {});
    socket.write(
      `POST /api/users/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=b\r\n` +
        `Content-Length: 1000000\r\nX-Forwarded-For: ${ip}\r\n\r\n--b\r\nContent-Disposition: form-data; name="firstName"\r\n\r\n`,
    );
    timers.push(setInterval(() => socket.writable && socket.write('x'), 50));
    return socket;
  };

  it('cuts a body that trickles in below the minimum rate, so two networks cannot hold the visitor slots', async () => {
    const port = await listening();
    const sockets: net.Socket[] = [];
    const timers: NodeJS.Timeout[] = [];
    const saved = { ...bodyDeadlines };
    // 20 bytes a second arrive: never idle, far below the (shortened) minimum rate.
    Object.assign(bodyDeadlines, { minBytesPerS: 1024, graceMs: 300, checkMs: 100 });
    try {
      const a = trickle(port, '203.0.113.7', sockets, timers);
      const b = trickle(port, '192.0.2.7', sockets, timers);
      await vi.waitFor(() => expect(visitorSlotStats().running).toBe(2));
      await vi.waitFor(() => expect(a.destroyed && b.destroyed).toBe(true), { timeout: 3_000 });
      await vi.waitFor(() => expect(visitorSlotStats()).toEqual({ running: 0, waiting: 0 }));
      // A registration with a picture gets through.
      const body = await pngForm({ ...registration, email: 'after-trickle@example.com' }, { image: await pngBytes() });
      const res = await t.app.inject({ method: 'POST', url: '/api/users/register', ...body });
      expect(res.statusCode).toBe(201);
    } finally {
      for (const timer of timers) clearInterval(timer);
      Object.assign(bodyDeadlines, saved);
      for (const socket of sockets) socket.destroy();
    }
  });

  it('lets the accounts of one network hold two of the four upload slots, one each', async () => {
    const port = await listening();
    const sockets: net.Socket[] = [];
    const saved = { ...bodyDeadlines };
    bodyDeadlines.graceMs = 60_000;
    try {
      // Two accounts, two connections each, one network: two run, two wait.
      for (const user of [cast.owner, cast.other]) for (let i = 0; i < 2; i++) void stall(String(port), sockets, '198.51.100.77', user.token);
      await vi.waitFor(() => expect(multipartSlotStats()).toEqual({ running: 2, waiting: 2 }));
      // Someone elsewhere still uploads a picture at once.
      const body = await pngForm({ kind: 'comment' }, { image: await pngBytes(16, 16) });
      const res = await t.app.inject({ method: 'POST', url: '/api/images', headers: { ...body.headers, ...bearer(cast.admin) }, payload: body.payload });
      expect(res.statusCode).toBe(201);
    } finally {
      Object.assign(bodyDeadlines, saved);
      for (const socket of sockets) socket.destroy();
    }
    await vi.waitFor(() => expect(multipartSlotStats()).toEqual({ running: 0, waiting: 0 }));
  });
});

describe('image writes (item 5)', () => {
  it('share one per-user limit: uploads, avatars, comment and reply edits', async () => {
    const user = cast.other;
    const auth = bearer(user);
    const comment = await createComment(t.deps, user.actor, { businessId: shop, text: 'Bra kaffe', businessLocation: 'Lund' });
    const reply = await createReply(t.deps, user.actor, { commentId: comment._id, text: 'Och bullar' });
    const writes: Array<() => Promise<{ url: string; method: 'POST' | 'PUT'; body: Awaited<ReturnType<typeof pngForm>> }>> = [
      async () => ({ method: 'POST', url: '/api/images', body: await pngForm({ kind: 'comment' }, { image: await pngBytes(16, 16) }) }),
      async () => ({ method: 'PUT', url: `/api/users/update/${user.id}`, body: await pngForm({}, { image: await pngBytes(16, 16) }) }),
      async () => ({
        method: 'PUT',
        url: `/api/comment/update/${comment._id}`,
        body: await pngForm({ text: 'Bra kaffe!' }, { image: await pngBytes(16, 16) }),
      }),
      async () => ({
        method: 'PUT',
        url: `/api/subComment/update/${reply._id}`,
        body: await pngForm({ text: 'Och bullar!' }, { image: await pngBytes(16, 16) }),
      }),
      async () => ({ method: 'POST', url: '/api/images', body: await pngForm({ kind: 'reply' }, { image: await pngBytes(16, 16) }) }),
    ];
    const send = async (write: (typeof writes)[number]) => {
      const { method, url, body } = await write();
      return (await t.app.inject({ method, url, headers: { ...body.headers, ...auth }, payload: body.payload })).statusCode;
    };
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push(await send(writes[i % writes.length]));
    expect(statuses.every((s) => s === 200 || s === 201)).toBe(true);

    expect(await send(writes[2])).toBe(429);
    expect(await send(writes[1])).toBe(429);
    // The limit is on pictures: the same edit without one still goes through.
    const textOnly = await pngForm({ text: 'Bara text' });
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/comment/update/${comment._id}`,
      headers: { ...textOnly.headers, ...auth },
      payload: textOnly.payload,
    });
    expect(edited.statusCode).toBe(200);
  });
});

describe('cheap writes (item 6)', () => {
  it('limits comment and reply edits per user', async () => {
    const user = cast.owner;
    const comment = await createComment(t.deps, user.actor, { businessId: shop, text: 'Trevlig personal', businessLocation: 'Lund' });
    const reply = await createReply(t.deps, user.actor, { commentId: comment._id, text: 'Håller med' });
    const edit = async (url: string, text: string, who = user) => {
      const body = await pngForm({ text });
      return (await t.app.inject({ method: 'PUT', url, headers: { ...body.headers, ...bearer(who) }, payload: body.payload })).statusCode;
    };
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      statuses.push(await edit(`/api/comment/update/${comment._id}`, `Trevlig personal ${i}`));
      statuses.push(await edit(`/api/subComment/update/${reply._id}`, `Håller med ${i}`));
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(await edit(`/api/comment/update/${comment._id}`, 'En gång till')).toBe(429);

    // Someone else's edits are counted apart.
    const theirs = await createComment(t.deps, cast.other.actor, { businessId: shop, text: 'Lagom', businessLocation: 'Lund' });
    expect(await edit(`/api/comment/update/${theirs._id}`, 'Lagom bra', cast.other)).toBe(200);
  });

  it('limits favourites per user', async () => {
    const user = cast.owner;
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await t.app.inject({
        method: i % 2 === 0 ? 'POST' : 'DELETE',
        url: `/api/users/${i % 2 === 0 ? 'addFavorite' : 'removeFavorite'}/${user.id}/${shop}`,
        headers: bearer(user),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    const over = await t.app.inject({ method: 'POST', url: `/api/users/addFavorite/${user.id}/${shop}`, headers: bearer(user) });
    expect(over.statusCode).toBe(429);
  });

  it('limits deletes per user, counted before anything is looked up', async () => {
    const user = cast.owner;
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const url = i % 2 === 0 ? `/api/comment/delete/nope${i}` : `/api/subComment/delete/nope${i}`;
      statuses.push((await t.app.inject({ method: 'DELETE', url, headers: bearer(user) })).statusCode);
    }
    expect(statuses.every((s) => s === 404)).toBe(true);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/comment/delete/nope', headers: bearer(user) })).statusCode).toBe(429);
  });

  it("limits an admin's digest setting like other edits (30 a minute)", async () => {
    const admin = await createTestUser(t.db, { isAdmin: true });
    const put = (modDigest: boolean) => t.app.inject({ method: 'PUT', url: '/api/mod-digest', headers: bearer(admin), payload: { modDigest } });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await put(i % 2 === 0)).statusCode);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect((await put(true)).statusCode).toBe(429);
  });
});
