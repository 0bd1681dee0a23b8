/** Seeded randomness, so two runs at the same scale and seed build the same data set. */

export type Rng = () => number;

/** mulberry32: tiny, fast, and good enough for test data (not for anything secret). */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const randInt = (rng: Rng, min: number, maxInclusive: number) => min + Math.floor(rng() * (maxInclusive - min + 1));

export function picker(rng: Rng) {
  return <T>(list: readonly T[]): T => list[Math.floor(rng() * list.length)];
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Same shape as server/lib/ids newId (16 base64url characters, 96 bits) but reproducible. */
export function randomId(rng: Rng): string {
  let s = '';
  for (let i = 0; i < 16; i++) s += ALPHABET[Math.floor(rng() * 64)];
  return s;
}

export function shuffleInPlace<T>(rng: Rng, list: T[] | Int32Array): void {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = list[i];
    list[i] = list[j];
    list[j] = tmp;
  }
}

/**
 * Zipf–Mandelbrot popularity over n items: P(rank k) ∝ 1 / (k + q)^s. The offset q flattens the
 * very top so the most popular comment gets a few thousand replies rather than a tenth of all.
 * Ranks map to a shuffled order of indices, so popularity is unrelated to creation order.
 */
export class ZipfSampler {
  private readonly cdf: Float64Array;
  readonly order: Int32Array;

  constructor(
    private readonly rng: Rng,
    readonly n: number,
    s: number,
    q: number,
    shuffle = true,
  ) {
    this.cdf = new Float64Array(n);
    let total = 0;
    for (let k = 0; k < n; k++) {
      total += 1 / Math.pow(k + 1 + q, s);
      this.cdf[k] = total;
    }
    this.order = new Int32Array(n);
    for (let i = 0; i < n; i++) this.order[i] = i;
    if (shuffle) shuffleInPlace(rng, this.order);
  }

  sample(): number {
    const u = this.rng() * this.cdf[this.n - 1];
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return this.order[lo];
  }

  /** The index with the given popularity rank (0 = most popular). */
  atRank(rank: number): number {
    return this.order[rank];
  }
}
