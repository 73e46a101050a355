import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PendingWindow } from '../../shared/evidence.ts';
import { EXAMPLE_STORE } from '../../shared/sac/testing/exampleStore.ts';
import { writtenOn } from '../../shared/sac/testing/machine.ts';
import { createSacReader, type SacChange, type SacReader } from '../sac/sacReader.ts';

// A sac reader over the example store, in the test's own process: for the reader's unit tests
// (server/sac/sacReader.test.ts) and for those of them that wait out the pending window, which
// run in a tier of their own (server/test/sacTornTail.test.ts).

/**
 * Writes the example store into a new temp folder, as if written on this machine (writtenOn);
 * `removeStores` deletes every one made.
 */
export function writeExampleStore(made: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'sac-reader-'));
  made.push(root);
  for (const [path, text] of Object.entries(writtenOn(hostname(), EXAMPLE_STORE))) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

export function removeStores(made: string[]): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
}

export async function startReader(root: string, options: PendingWindow = {}): Promise<{ reader: SacReader; changes: SacChange[] }> {
  const changes: SacChange[] = [];
  const reader = createSacReader({ root, onChange: (change) => changes.push(change), onStatus: () => {}, pendingWindowMs: options.pendingWindowMs });
  await reader.start();
  // What the first scan read is told once, as it ends: what follows is news.
  assert.ok(changes.some((change) => change.store && change.rooms.includes('team')), 'the scan tells what it read');
  changes.length = 0;
  return { reader, changes };
}

export async function until<T>(probe: () => T | undefined, what: string, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
