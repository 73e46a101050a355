// A fingerprint for tests of the reading threads, which load a kind's fingerprint by its module's
// place: any function of a file's bytes to a number serves.

/** A sum of the bytes weighed by their places, and their count. */
export function fingerprintBytesForTest(bytes: Uint8Array): number {
  return bytes.reduce((sum, byte, at) => sum + byte * (at + 1), bytes.length);
}
