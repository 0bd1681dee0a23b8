import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { businesses, comments, images, replies, users } from '../../../db/schema';
import { newId } from '../../lib/ids';
import { resolveCategory } from '../business/categories';
import { imageBounds, type ImageKind } from '../../../shared/schemas/common';
import { bearer, createTestApp, createTestUser, type TestContext, type TestUser } from '../../test/helpers';
import {
  encodeQueueStats,
  MAX_BUFFERED_PIXELS,
  MAX_INPUT_PIXELS,
  releaseImage,
  releaseImages,
  requireImage,
  storeImage,
  storeSvgImage,
  sweepUnreferencedImages,
} from './images';

type FilePart = { data: Buffer; filename: string; type: string };

/** A real multipart body, built by the platform's FormData the way a browser would send it. */
async function multipart(parts: Record<string, string | FilePart>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.data)], { type: value.type }), value.filename);
  }
  const request = new Request('http://localhost/api/images', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') as string };
}

/** A 4000×3000 phone-style JPEG: GPS position, camera make, and "rotate 90° to view" (6). */
async function phonePhoto(): Promise<Buffer> {
  return sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#88aa33' } })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'LeakyPhone', Model: 'GPS-9000' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '59/1 19/1 4/1', GPSLongitudeRef: 'E', GPSLongitude: '18/1 4/1 7/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

const solidPng = (background: string, width = 40, height = 30) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** EXIF pointer to the GPS directory (tag 0x8825, type LONG), little-endian as sharp writes it. */
const GPS_IFD_POINTER = Buffer.from([0x25, 0x88, 0x04, 0x00]);

let t: TestContext;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createTestUser(t.db);
});
afterAll(async () => {
  await t.close();
});

const uploadsDir = () => t.deps.paths.uploads;
const uploadedFiles = () => readdirSync(uploadsDir()).sort();
const imageRows = () => t.db.select({ n: count() }).from(images).get()?.n ?? 0;
const snapshot = () => ({ files: uploadedFiles(), rows: imageRows() });

async function upload(parts: Record<string, string | FilePart>, as: TestUser | null = user) {
  const { payload, contentType } = await multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: '/api/images',
    payload,
    headers: { 'content-type': contentType, ...(as ? bearer(as) : {}) },
  });
}

describe('POST /api/images', () => {
  it('re-encodes a phone photo to an upright WebP within the comment bounds and drops its EXIF and GPS', async () => {
    const photo = await phonePhoto();
    const input = await sharp(photo).metadata();
    // The fixture must really carry what we expect to strip, or the checks below prove nothing.
    expect(input.orientation).toBe(6);
    expect(input.exif?.includes(GPS_IFD_POINTER)).toBe(true);
    expect(input.exif?.includes(Buffer.from('LeakyPhone'))).toBe(true);

    const res = await upload({ image: { data: photo, filename: 'IMG_0001.jpg', type: 'image/jpeg' } });
    expect(res.statusCode).toBe(201);
    const body = res.json<{ id: string; url: string }>();
    expect(body.url).toMatch(/^\/uploads\/[0-9a-f]{64}\.webp$/);

    const file = path.join(uploadsDir(), path.basename(body.url));
    const stored = readFileSync(file);
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('webp');
    // Orientation 6 means portrait once rotated: 3000×4000 shrunk to fit 1920.
    expect([meta.width, meta.height]).toEqual([1440, 1920]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(stored.includes(Buffer.from('LeakyPhone'))).toBe(false);
    expect(stored.includes(Buffer.from('EXIF'))).toBe(false);

    const row = t.db.select().from(images).where(eq(images.id, body.id)).get();
    expect(row).toMatchObject({ mime: 'image/webp', kind: 'comment', width: 1440, height: 1920, bytes: stored.length, ownerId: user.id });

    const get = await t.app.inject({ method: 'GET', url: body.url });
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-type']).toBe('image/webp');
    expect(String(get.headers['cache-control'])).toContain('immutable');
    expect(get.headers['x-content-type-options']).toBe('nosniff');
    expect(get.rawPayload.equals(stored)).toBe(true);
  });

  it('honours the kind field and accepts the file under the name "file"', async () => {
    const res = await upload({ kind: 'reply-edit', file: { data: await solidPng('#aa2244', 1200, 900), filename: 'a.png', type: 'image/png' } });
    expect(res.statusCode).toBe(201);
    const meta = await sharp(path.join(uploadsDir(), path.basename(res.json().url))).metadata();
    expect([meta.width, meta.height]).toEqual([300, 225]);
    expect(t.db.select().from(images).where(eq(images.id, res.json().id)).get()?.kind).toBe('reply-edit');
  });

  it('refuses a decompression bomb with 413 before decoding it, and stores nothing', async () => {
    const side = Math.ceil(Math.sqrt(MAX_INPUT_PIXELS)) + 100;
    const bomb = await sharp({ create: { width: side, height: side, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = snapshot();
    const res = await upload({ image: { data: bomb, filename: 'small.png', type: 'image/png' } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ key: 'imageTooManyPixels' });
    expect(snapshot()).toEqual(before);
  });

  it('refuses a progressive 40 MP rotated JPEG of 235 KB (decoded whole: 126 MB) with 413, as avatar and photo', async () => {
    // The attack's file: one colour, progressive, 4:2:0, "rotate 90° to view".
    const crafted = await sharp({ create: { width: 8000, height: 5000, channels: 3, background: '#c86432' } })
      .jpeg({ quality: 10, progressive: true })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(crafted.length).toBeLessThan(300 * 1024);
    expect(8000 * 5000).toBeLessThanOrEqual(MAX_INPUT_PIXELS);
    const before = snapshot();
    const res = await upload({ image: { data: crafted, filename: 'me.jpg', type: 'image/jpeg' }, kind: 'avatar' });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ key: 'imageTooManyPixels' });
    await expect(storeImage(t.deps, { bytes: crafted, kind: 'comment', ownerId: user.id })).rejects.toMatchObject({ status: 413, key: 'imageTooManyPixels' });
    // A GIF (always decoded whole) past the same limit too.
    const side = Math.ceil(Math.sqrt(MAX_BUFFERED_PIXELS)) + 10;
    const gif = await sharp({ create: { width: side, height: side, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    expect((await upload({ image: { data: gif, filename: 'a.gif', type: 'image/gif' } })).statusCode).toBe(413);
    expect(snapshot()).toEqual(before);
  });

  it('still takes a progressive JPEG below the limit, and a baseline one of 40 MP', async () => {
    const progressive = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#123456' } })
      .jpeg({ progressive: true })
      .toBuffer();
    expect((await upload({ image: { data: progressive, filename: 'p.jpg', type: 'image/jpeg' }, kind: 'avatar' })).statusCode).toBe(201);
    const baseline = await sharp({ create: { width: 8000, height: 5000, channels: 3, background: '#654321' } })
      .jpeg({ quality: 10 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect((await upload({ image: { data: baseline, filename: 'b.jpg', type: 'image/jpeg' }, kind: 'avatar' })).statusCode).toBe(201);
  });

  it('refuses a text file named .jpg with 415, and stores nothing', async () => {
    const before = snapshot();
    const res = await upload({ image: { data: Buffer.from('just some words, not a picture\n'.repeat(20)), filename: 'holiday.jpg', type: 'image/jpeg' } });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ message: 'The file is not a supported image (JPEG, PNG, WebP, GIF or AVIF).', key: 'imageUnsupported' });
    expect(snapshot()).toEqual(before);
  });

  it('refuses a file that starts like a JPEG but cannot be decoded with 415', async () => {
    const before = snapshot();
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(4096, 7)]);
    const res = await upload({ image: { data: fake, filename: 'broken.jpg', type: 'image/jpeg' } });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ key: 'imageUnsupported' });
    expect(snapshot()).toEqual(before);
  });

  it('refuses an SVG (scriptable, never accepted from users) with 415', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const res = await upload({ image: { data: svg, filename: 'x.svg', type: 'image/svg+xml' } });
    expect(res.statusCode).toBe(415);
  });

  it('refuses an 11 MB file with 413 and the documented message, and stores nothing', async () => {
    const before = snapshot();
    const big = Buffer.concat([await solidPng('#123456'), Buffer.alloc(11 * 1024 * 1024, 1)]);
    const res = await upload({ image: { data: big, filename: 'huge.png', type: 'image/png' } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      message: 'The selected image exceeds the size limit (10 MB). Please choose a smaller image.',
      key: 'imageTooLarge',
    });
    expect(snapshot()).toEqual(before);
  });

  it('answers 401 to a visitor and 403 to a banned user, storing nothing', async () => {
    const banned = await createTestUser(t.db, { isBanned: true });
    const data = await solidPng('#336699');
    const before = snapshot();
    const visitor = await upload({ image: { data, filename: 'a.png', type: 'image/png' } }, null);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ key: 'unauthenticated' });
    const refused = await upload({ image: { data, filename: 'a.png', type: 'image/png' } }, banned);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ key: 'banned' });
    expect(snapshot()).toEqual(before);
  });

  it('answers 400 when no image is sent or the kind is unknown, 415 when the body is not multipart', async () => {
    const data = await solidPng('#663399');
    const noFile = await upload({ kind: 'comment' });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toMatchObject({ key: 'imageMissing' });

    const emptyRes = await upload({ image: { data: Buffer.alloc(0), filename: 'empty.jpg', type: 'image/jpeg' } });
    expect(emptyRes.statusCode).toBe(400);
    expect(emptyRes.json()).toMatchObject({ key: 'imageMissing' });

    const badKind = await upload({ kind: 'poster', image: { data, filename: 'a.png', type: 'image/png' } });
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json()).toMatchObject({ key: 'invalidInput', errors: { kind: 'Invalid input.' } });

    // A body of another type is 415 (issue 28); no body at all stays the 400 above.
    const json = await t.app.inject({ method: 'POST', url: '/api/images', payload: { image: 'x' }, headers: bearer(user) });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ key: 'unsupportedContentType' });
  });

  it('answers 400, not 500, to a malformed multipart body', async () => {
    const boundary = 'recensera-broken';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/images',
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(user) },
    });
    expect(res.statusCode).toBe(400);
  });

  it('stores the same bytes once: same file name, same id, one row', async () => {
    const data = await solidPng('#0f0f0f', 64, 64);
    const first = await upload({ image: { data, filename: 'a.png', type: 'image/png' } });
    const rowsAfterFirst = imageRows();
    const filesAfterFirst = uploadedFiles();
    const second = await upload({ image: { data, filename: 'b.png', type: 'image/png' } });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(imageRows()).toBe(rowsAfterFirst);
    expect(uploadedFiles()).toEqual(filesAfterFirst);
    expect(t.db.select().from(images).where(eq(images.id, first.json().id)).all()).toHaveLength(1);
  });

  it('is documented in the OpenAPI description as a multipart upload', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const post = res.json().paths['/api/images/']?.post ?? res.json().paths['/api/images']?.post;
    expect(post.tags).toEqual(['images']);
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '413', '415']));
    expect(JSON.stringify(post)).toContain('multipart/form-data');
  });
});

describe('image service', () => {
  async function stored(colour: string, kind: ImageKind = 'comment', ownerId: string | null = user.id) {
    return storeImage(t.deps, { bytes: await solidPng(colour), kind, ownerId });
  }
  const fileOf = (fileName: string) => path.join(uploadsDir(), fileName);
  const rowOf = (id: string) => t.db.select().from(images).where(eq(images.id, id)).get();

  it('lowers the quality until a noisy photo fits the byte budget of its kind', async () => {
    const noisy = await sharp({ create: { width: 1920, height: 1920, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 90 } } })
      .jpeg({ quality: 92 })
      .toBuffer();
    const { maxBytes } = imageBounds.comment;
    // At the first quality step this photo is over budget, so a pass means the stepping ran.
    expect((await sharp(noisy).webp({ quality: 80 }).toBuffer()).length).toBeGreaterThan(maxBytes);
    const image = await storeImage(t.deps, { bytes: noisy, kind: 'comment', ownerId: user.id });
    expect(statSync(fileOf(image.fileName)).size).toBeLessThanOrEqual(maxBytes);
    expect(rowOf(image.id)?.bytes).toBeLessThanOrEqual(maxBytes);
  });

  it('handles a burst of parallel uploads through its small encode queue', async () => {
    const colours = ['#010203', '#040506', '#070809', '#0a0b0c', '#0d0e0f'];
    const results = await Promise.all(colours.map((c) => stored(c)));
    expect(new Set(results.map((r) => r.fileName)).size).toBe(colours.length);
    for (const r of results) expect(existsSync(fileOf(r.fileName))).toBe(true);
  });

  it("shares a row two users uploaded and lets each attach it, but not a stranger's own image", async () => {
    const other = await createTestUser(t.db);
    const mine = await stored('#aabbcc');
    expect(requireImage(t.db, mine.id, user.id).id).toBe(mine.id);
    expect(() => requireImage(t.db, mine.id, other.id)).toThrowError(expect.objectContaining({ code: 'BAD_INPUT', key: 'imageUnknown' }));
    expect(() => requireImage(t.db, 'no-such-image')).toThrowError(expect.objectContaining({ key: 'imageUnknown' }));

    const theirs = await stored('#aabbcc', 'comment', other.id);
    expect(theirs.id).toBe(mine.id);
    expect(rowOf(mine.id)?.ownerId).toBeNull();
    expect(requireImage(t.db, mine.id, user.id).id).toBe(mine.id);
    expect(requireImage(t.db, mine.id, other.id).id).toBe(mine.id);
  });

  it('stores a server-made SVG under its content hash', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128"><rect width="128" height="128" fill="#2a6"/></svg>';
    const icon = await storeSvgImage(t.deps, svg, 'demo');
    expect(icon.fileName).toMatch(/^[0-9a-f]{64}\.svg$/);
    expect(icon.url).toBe(`/uploads/${icon.fileName}`);
    expect(readFileSync(fileOf(icon.fileName), 'utf8')).toBe(svg);
    expect(rowOf(icon.id)).toMatchObject({ mime: 'image/svg+xml', kind: 'demo', width: 128, height: 128, ownerId: null });
    expect((await storeSvgImage(t.deps, svg, 'demo')).id).toBe(icon.id);
  });

  it('releaseImage removes an unreferenced image with its file and keeps one a user still shows', async () => {
    const loose = await stored('#101010');
    const avatar = await stored('#202020', 'avatar');
    t.db.update(users).set({ imageId: avatar.id }).where(eq(users.id, user.id)).run();

    await releaseImages(t.deps, [loose.id, avatar.id, null]);
    expect(rowOf(loose.id)).toBeUndefined();
    expect(existsSync(fileOf(loose.fileName))).toBe(false);
    expect(rowOf(avatar.id)).toBeDefined();
    expect(existsSync(fileOf(avatar.fileName))).toBe(true);

    // Once the avatar is replaced, the old picture goes; releasing again or a missing file is fine.
    t.db.update(users).set({ imageId: null }).where(eq(users.id, user.id)).run();
    await releaseImage(t.deps, avatar.id);
    expect(rowOf(avatar.id)).toBeUndefined();
    expect(existsSync(fileOf(avatar.fileName))).toBe(false);
    await releaseImage(t.deps, avatar.id);
  });

  it('releaseImage inside a transaction that rolls back keeps both row and file', async () => {
    const image = await stored('#303030');
    let pending: Promise<void> | undefined;
    expect(() =>
      t.db.transaction(() => {
        pending = releaseImage(t.deps, image.id);
        expect(t.db.select().from(images).where(eq(images.id, image.id)).get()).toBeUndefined();
        throw new Error('the surrounding change failed');
      }),
    ).toThrow('the surrounding change failed');
    await pending;
    expect(rowOf(image.id)).toBeDefined();
    expect(existsSync(fileOf(image.fileName))).toBe(true);
  });

  it('sweepUnreferencedImages removes only images unreferenced for 24 hours', async () => {
    const now = Date.now();
    const old = now - 25 * 60 * 60 * 1000;
    const owner = await createTestUser(t.db);
    const [avatar, businessImage, icon, commentImage, replyImage, orphanOld, orphanNew] = await Promise.all(
      ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#00ffff', '#ff00ff', '#ffffff'].map((c) => stored(c)),
    );
    // Distinct pictures, or content-hash sharing would make them all one row.
    expect(new Set([avatar, businessImage, icon, commentImage, replyImage, orphanOld, orphanNew].map((i) => i.id)).size).toBe(7);
    for (const image of [avatar, businessImage, icon, commentImage, replyImage, orphanOld]) {
      t.db.update(images).set({ createdAt: old }).where(eq(images.id, image.id)).run();
    }
    t.db.update(users).set({ imageId: avatar.id }).where(eq(users.id, owner.id)).run();
    const businessId = newId();
    t.db
      .insert(businesses)
      .values({
        id: businessId,
        title: 'Kafé Test',
        titleSearch: 'kafé test',
        categoryId: resolveCategory(t.db, 'Café', undefined, now),
        description: 'x',
        imageId: businessImage.id,
        iconId: icon.id,
        createdAt: now,
        updatedAt: now,
      })
      .run();
    const commentId = newId();
    t.db
      .insert(comments)
      .values({
        id: commentId,
        businessId,
        userId: owner.id,
        businessLocation: 'Stockholm',
        text: 'Gott',
        imageId: commentImage.id,
        createdAt: now,
        updatedAt: now,
      })
      .run();
    t.db
      .insert(replies)
      .values({ id: newId(), commentId, businessId, userId: owner.id, text: 'Håller med', imageId: replyImage.id, createdAt: now, updatedAt: now })
      .run();

    const staleTemp = path.join(uploadsDir(), '.tmp-left-by-a-crash');
    writeFileSync(staleTemp, 'half');
    utimesSync(staleTemp, new Date(now - 2 * 60 * 60 * 1000), new Date(now - 2 * 60 * 60 * 1000));
    const inFlightTemp = path.join(uploadsDir(), '.tmp-being-written');
    writeFileSync(inFlightTemp, 'half');

    expect(await sweepUnreferencedImages(t.deps, now)).toBe(1);
    expect(rowOf(orphanOld.id)).toBeUndefined();
    expect(existsSync(fileOf(orphanOld.fileName))).toBe(false);
    expect(existsSync(staleTemp)).toBe(false);
    expect(existsSync(inFlightTemp)).toBe(true);
    rmSync(inFlightTemp);
    for (const kept of [avatar, businessImage, icon, commentImage, replyImage, orphanNew]) {
      expect(rowOf(kept.id)).toBeDefined();
      expect(existsSync(fileOf(kept.fileName))).toBe(true);
    }
  });
});

describe('POST /api/images rate limit', () => {
  it('answers 429 after 30 uploads a minute from one address', async () => {
    const own = await createTestApp();
    try {
      const { payload, contentType } = await multipart({ kind: 'comment' });
      const post = () => own.app.inject({ method: 'POST', url: '/api/images', payload, headers: { 'content-type': contentType } });
      for (let i = 0; i < 30; i++) expect((await post()).statusCode).toBe(401);
      const limited = await post();
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ key: 'tooManyRequests' });
    } finally {
      await own.close();
    }
  });
});

describe('the encode queue (issue 15 item 5)', () => {
  /** A 3000×3000 picture: small on the wire, a few dozen milliseconds to decode and shrink. */
  let colour = 0;
  const large = () => {
    colour += 1;
    return solidPng(`#${(colour * 2654435).toString(16).padStart(6, '0').slice(-6)}`, 3000, 3000);
  };
  const settle = (work: Promise<unknown>) =>
    work.then(
      () => 'stored',
      (err: { code?: string; retryAfterS?: number }) => `${err.code} ${err.retryAfterS}`,
    );

  it('is bounded: a full queue of one owner is 429, of everyone 503, both with Retry-After', async () => {
    const [a, b, c] = await Promise.all([createTestUser(t.db), createTestUser(t.db), createTestUser(t.db)]);
    const bytes = await large();
    const store = (owner: TestUser) => settle(storeImage(t.deps, { bytes, kind: 'avatar', ownerId: owner.id }));
    const fromA = Array.from({ length: 10 }, () => store(a));
    const fromB = Array.from({ length: 6 }, () => store(b));
    const fromC = store(c);
    // Two encode, six of A's wait; B fills the other six waiting places; C finds none.
    expect(await Promise.all(fromA)).toEqual([...Array(8).fill('stored'), 'RATE_LIMITED 5', 'RATE_LIMITED 5']);
    expect(await Promise.all(fromB)).toEqual(Array(6).fill('stored'));
    expect(await fromC).toBe('BUSY 5');
  });

  it("serves another owner's picture before the rest of one owner's pile", async () => {
    const [a, b] = await Promise.all([createTestUser(t.db), createTestUser(t.db)]);
    const pile = await Promise.all(Array.from({ length: 5 }, () => large()));
    const small = await solidPng('#123456');
    const finished: string[] = [];
    const store = (owner: TestUser, bytes: Buffer, name: string) =>
      storeImage(t.deps, { bytes, kind: 'avatar', ownerId: owner.id }).then(() => finished.push(name));
    const fromA = pile.map((bytes, i) => store(a, bytes, `a${i}`));
    // All of A's pile has reached the queue (or been through it) before B asks.
    await vi.waitFor(
      () => {
        const { running, waiting } = encodeQueueStats();
        expect(running + waiting + finished.length).toBe(5);
      },
      { interval: 2 },
    );
    await Promise.all([...fromA, store(b, small, 'b')]);
    // First in first out, b would finish last; it gets the first encoder that frees up.
    expect(finished.indexOf('b')).toBeLessThanOrEqual(2);
  });
});
