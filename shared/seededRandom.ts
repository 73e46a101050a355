/**
 * mulberry32: a small, fast, seedable generator, good enough for sizes and choices. Seeded, a demo,
 * a generated record or a randomized test comes out the same every time, so a failure can be
 * replayed from its seed.
 */
export function createSeededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
