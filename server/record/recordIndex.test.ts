import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readEntry } from '../../shared/record/entry.ts';
import { parseEntryName } from '../../shared/record/entryName.ts';
import type { KnownFile } from '../../shared/record/knownFile.ts';
import { concludeObservation } from '../../shared/record/observation.ts';
import { foldSession } from '../../shared/record/session.ts';
import { CWD, OTHER, SESSION, receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { createRecordIndex } from './recordIndex.ts';
import { createSeededRandom } from '../../shared/seededRandom.ts';

// The index folds a session again only from the first file that changed. Whatever happens to
// the session's files, in whatever order, that fold must be the one made from scratch.

function nameOf(ms: number, seq: number, padded: boolean): string {
  const at = new Date(Date.UTC(2026, 10, 20, 9) + ms).toISOString().replace(/:/g, '');
  return `${at}-${padded ? String(seq).padStart(4, '0') : seq}.json`;
}

function conclusionOf(name: string, content: unknown, mtimeMs: number): KnownFile {
  const bytes = new TextEncoder().encode(typeof content === 'string' ? content : JSON.stringify(content));
  const reading = readEntry(bytes);
  const now = Date.now();
  const changedAt = now - 60_000;
  return concludeObservation(
    null,
    { name, entryName: parseEntryName(name), mtimeMs },
    reading.outcome === 'entry'
      ? { type: 'entry', facts: reading.facts, fingerprint: bytes.length, size: bytes.length, changedAt }
      : reading.outcome === 'invalid'
        ? { type: 'invalid', why: reading.why, fingerprint: bytes.length, size: bytes.length }
        : { type: 'unparsed', why: reading.why, size: bytes.length, changedAt },
    now,
  )!;
}

/** Any content a session folder may hold, weighted roughly as a busy record holds it. */
function contentOf(random: () => number, i: number): unknown {
  const roll = random();
  if (roll < 0.04) return startEntry(0, { cwd: random() < 0.5 ? CWD : '/home/dev/projects/other' });
  if (roll < 0.07) return '{"kind":"mess';
  if (roll < 0.09) return { kind: 'message' };
  if (roll < 0.1) return sentEntry(0, `from elsewhere ${i}`, { sessionId: OTHER });
  if (roll < 0.11) return { kind: 'chain', sessionId: SESSION, at: '2026-11-20T09:00:00.000Z', parent: OTHER, part: i, brief: 'next part' };
  if (roll < 0.55) return sentEntry(0, `sent ${i}`, { isQueued: random() < 0.9, cwd: random() < 0.9 ? CWD : `/tmp/cwd-${i % 3}` });
  return receivedEntry(0, `received ${i}`, { outcome: random() < 0.9 ? 'consumed' : 'rejected' });
}

function runOperations(seed: number, operations: number): void {
  const random = createSeededRandom(seed);
  const index = createRecordIndex(() => {});
  const names: string[] = [];
  let folderProblem: string | null = null;
  let clock = 0;
  let seq = 0;
  const fromScratch = () => foldSession(SESSION, index.files(SESSION), folderProblem);

  for (let op = 0; op < operations; op++) {
    const roll = random();
    if (roll < 0.6 || names.length === 0) {
      // A new file: mostly the next one; sometimes late (an earlier time), skipping numbers, or a
      // sequence that begins again.
      const late = random() < 0.08;
      clock += 1 + Math.floor(random() * 40);
      seq += random() < 0.05 ? 2 + Math.floor(random() * 3) : 1;
      if (random() < 0.01) seq = 1;
      const name = nameOf(late ? Math.floor(random() * clock) : clock, seq, random() < 0.1);
      if (!names.includes(name)) names.push(name);
      index.putFile(SESSION, name, conclusionOf(name, contentOf(random, op), clock));
    } else if (roll < 0.8) {
      // A file read again: it parsed at last, or something changed it.
      const name = names[Math.floor(random() * names.length)]!;
      index.putFile(SESSION, name, conclusionOf(name, contentOf(random, op), clock));
    } else if (roll < 0.88) {
      // A file gone: nothing left of it.
      const [name] = names.splice(Math.floor(random() * names.length), 1);
      index.putFile(SESSION, name!, null);
    } else if (roll < 0.96) {
      // A file that is not an entry (no entry's name, or not a regular file).
      const name = random() < 0.5 ? `notes-${op}.txt` : names[Math.floor(random() * names.length)]!;
      if (!names.includes(name)) names.push(name);
      index.putFile(SESSION, name, { name, entryName: parseEntryName(name), evidence: 'stray', why: 'not an entry file name', size: 3, facts: null, fingerprint: null, mtimeMs: clock } as KnownFile);
    } else {
      folderProblem = folderProblem === null ? 'permission denied' : null;
      index.setFolderProblem(SESSION, folderProblem);
    }
    // Folding after every change would never let changes gather; after most of them is enough.
    if (op < 300 || random() < 0.2 || op === operations - 1) {
      assert.deepStrictEqual(index.fold(SESSION), fromScratch(), `seed ${seed}, operation ${op}`);
    }
  }
}

describe('the record index', () => {
  test('a session folded again from its first changed file equals the session folded from scratch', () => {
    // Past 512 files the folder goes back to checkpoints rather than to the start.
    for (const seed of [1, 2, 3]) runOperations(seed, 2_500);
  });

  test('a write at the end of a long session folds only the end again, making no new items for the rest', () => {
    const index = createRecordIndex(() => {});
    for (let i = 1; i <= 5_000; i++) index.putFile(SESSION, nameOf(i, i, false), conclusionOf(nameOf(i, i, false), sentEntry(0, `m${i}`), i));
    const before = index.fold(SESSION)!;
    const firstItem = before.items[0];
    const middleItem = before.items[2_500];
    index.putFile(SESSION, nameOf(5_001, 5_001, false), conclusionOf(nameOf(5_001, 5_001, false), sentEntry(0, 'new'), 5_001));
    const after = index.fold(SESSION)!;
    assert.notEqual(after, before);
    assert.equal(after.items.length, 5_001);
    assert.equal(after.items[0], firstItem);
    assert.equal(after.items[2_500], middleItem);
    assert.deepStrictEqual(after, foldSession(SESSION, index.files(SESSION)));
  });
});
