// Seeded random numbers for simulations whose figures must be reproducible: the
// same seed string gives the same stream on every machine and Node version,
// which Math.random() cannot promise. sfc32 (Chris Doty-Humphrey's small fast
// counting generator) seeded through cyrb128, both public domain; plenty for
// Monte Carlo, not for anything secret.

/** A stream of doubles in [0, 1). */
export type Random = () => number;

/** Four 32-bit words from a string (cyrb128), so any text, such as "17|binary|p=0.2", can seed a stream. */
function cyrb128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
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

export function seededRandom(seed: string): Random {
  let [a, b, c, d] = cyrb128(seed);
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // The first outputs after seeding are still close to the hash; discard a few.
  for (let i = 0; i < 15; i++) next();
  return next;
}

export const bernoulli = (rng: Random, p: number): boolean => rng() < p;

/** Standard normal by Box–Muller; 1 − u keeps the logarithm finite. */
export function normal(rng: Random): number {
  const u = 1 - rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

/** Gamma(shape, 1) by Marsaglia and Tsang (2000), boosted for shape < 1. */
export function gamma(rng: Random, shape: number): number {
  if (!(shape > 0 && Number.isFinite(shape))) throw new RangeError(`gamma shape must be finite and positive, got ${shape}`);
  if (shape < 1) return gamma(rng, shape + 1) * rng() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng();
    if (u < 1 - 0.0331 * x ** 4) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** Beta(alpha, beta) as X / (X + Y) with X, Y independent gammas. */
export function betaDraw(rng: Random, alpha: number, beta: number): number {
  const x = gamma(rng, alpha);
  const y = gamma(rng, beta);
  // Both can underflow to 0 for tiny shapes; the limit then puts all mass on the ends.
  if (x + y === 0) return bernoulli(rng, alpha / (alpha + beta)) ? 1 : 0;
  return x / (x + y);
}
