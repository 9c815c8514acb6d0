/**
 * Deterministic random streams. Every stream is keyed by a label path (seed, height, purpose), so one stream's
 * draws never shift another's: the canonical block at height h uses `(seed, h, module)`, forks use
 * `(seed, h, 'fork', …)`, and adding a draw in one module changes nothing else.
 */
/** Hex digits of every byte value, for fast hex output. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * 128-bit string hash (cyrb128: four interleaved murmur-style lanes). Seeding only needs the label path to
 * scatter well; it is not a security boundary, and a cryptographic hash here would dominate generation time.
 */
function seedOf(key: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < key.length; i++) {
    const k = key.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...labels: (string | number)[]) {
    [this.a, this.b, this.c, this.d] = seedOf(labels.join('\u001f'));
    // Warm up: sfc32's first outputs are correlated with the seed words.
    for (let i = 0; i < 12; i++) this.next();
  }

  /** sfc32: fast, 128-bit state, good enough statistics for simulation. Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const v = items[Math.floor(this.next() * items.length)];
    if (v === undefined) throw new Error('pick from an empty list');
    return v;
  }

  /** Log-uniform amount in [lo, hi] (wallet balances and payments span orders of magnitude on mainnet). */
  logUniform(lo: number, hi: number): number {
    return Math.exp(Math.log(lo) + this.next() * (Math.log(hi) - Math.log(lo)));
  }

  /** Poisson-distributed count with mean `mean` (transactions per block and the like). */
  poisson(mean: number): number {
    const l = Math.exp(-mean);
    let k = 0;
    let p = 1;
    do {
      k++;
      p *= this.next();
    } while (p > l);
    return k - 1;
  }

  /** `bytes` pseudo-random bytes as hex (signatures, VRF outputs). */
  hex(bytes: number): string {
    let s = '';
    for (let i = 0; i < bytes; i += 4) {
      const x = (this.next() * 4294967296) >>> 0;
      s += HEX[x >>> 24]! + HEX[(x >>> 16) & 0xff]! + HEX[(x >>> 8) & 0xff]! + HEX[x & 0xff]!;
    }
    return s.length === bytes * 2 ? s : s.slice(0, bytes * 2);
  }
}
