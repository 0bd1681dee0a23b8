/** Upload timing: 12-megapixel phone-like JPEGs through POST /api/images, one at a time and ten at once. */
import sharp from 'sharp';
import { multipartBody } from './multipart';
import { httpRequest, type RssSampler } from './processes';

const WIDTH = 4000;
const HEIGHT = 3000;

/**
 * A 12 MP JPEG of about 3.4 MB (quality 90): gradients plus grain, so the encoder works about as
 * hard as on a photo. The seed makes each file's bytes, and so its stored hash, different.
 */
export async function makePhoto(seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
  let s = (seed * 2654435761) >>> 0;
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const grain = (s >>> 24) / 16;
      raw[i] = ((x * 255) / WIDTH + grain + seed * 7) & 255;
      raw[i + 1] = ((y * 255) / HEIGHT + grain) & 255;
      raw[i + 2] = (((x + y) * 128) / WIDTH + grain) & 255;
    }
  }
  return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

export type UploadResult = { ms: number; status: number; body: string };

export async function uploadPhoto(origin: string, token: string, jpeg: Buffer): Promise<UploadResult> {
  const form = multipartBody([
    { name: 'kind', value: 'comment' },
    { name: 'image', fileName: 'IMG_0001.jpg', contentType: 'image/jpeg', data: jpeg },
  ]);
  const started = performance.now();
  const reply = await httpRequest(`${origin}/api/images`, {
    method: 'POST',
    headers: { 'content-type': form.contentType, 'content-length': String(form.body.length), authorization: `Bearer ${token}` },
    body: form.body,
    timeoutMs: 120_000,
  });
  return { ms: performance.now() - started, status: reply.status, body: reply.body.toString('utf8').slice(0, 200) };
}

export type ImageBench = {
  photoBytes: number;
  single: { ms: number[]; medianMs: number | null; statuses: number[] };
  parallel: { count: number; wallMs: number; rssPeakKb: number; statuses: number[] };
  error?: string;
};

const median = (xs: number[]) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/**
 * `tokens`: the bench users' sessions. The single uploads use the first; the parallel ones one user
 * each, as ten people posting photos at once would (one user's own eleventh-at-once upload is
 * told to wait: at most one body read and four waiting per user, server/rest/images.ts).
 */
export async function benchImages(origin: string, tokens: readonly string[], rss: RssSampler, runs = 3, parallel = 10): Promise<ImageBench> {
  const photos = await Promise.all(Array.from({ length: runs + parallel }, (_, i) => makePhoto(i + 1)));
  const out: ImageBench = {
    photoBytes: photos[0].length,
    single: { ms: [], medianMs: null, statuses: [] },
    parallel: { count: parallel, wallMs: 0, rssPeakKb: 0, statuses: [] },
  };
  for (let i = 0; i < runs; i++) {
    const r = await uploadPhoto(origin, tokens[0], photos[i]);
    out.single.statuses.push(r.status);
    if (r.status === 201 || r.status === 200) out.single.ms.push(r.ms);
    else out.error = `upload answered ${r.status}: ${r.body}`;
  }
  out.single.medianMs = median(out.single.ms);

  rss.beginWindow('uploads');
  const started = performance.now();
  const results = await Promise.all(photos.slice(runs).map((p, i) => uploadPhoto(origin, tokens[i % tokens.length], p)));
  out.parallel.wallMs = performance.now() - started;
  out.parallel.rssPeakKb = rss.endWindow('uploads');
  out.parallel.statuses = results.map((r) => r.status);
  const failed = results.find((r) => r.status !== 201 && r.status !== 200);
  if (failed && !out.error) out.error = `parallel upload answered ${failed.status}: ${failed.body}`;
  return out;
}
