import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { createSeededRandom } from '../seededRandom.ts';
import { SESSION, bytesOf, receivedEntry, sentEntry, startEntry } from '../test/recordFixtures.ts';
import { checkEntry } from './entry.ts';
import { AT_PATTERN, readEntryFacts } from './entryFacts.ts';

// The entry read without the schemas is a second reading of the rules the schemas state: it may
// leave an entry to them, but where it vouches for one, they must read the same.

const chainEntry = (extra: Record<string, unknown> = {}) => ({ kind: 'chain', sessionId: SESSION, at: '2026-11-20T09:00:00.000Z', cwd: '/x', parent: 'p1', part: 2, brief: 'review', ...extra });
const withheld = { text: undefined, textLength: 42, textHash: `sha256:${'ab'.repeat(32)}` };

/** Entries as the plugin writes them, one of each form. */
const WRITTEN = [
  startEntry(0),
  startEntry(0, { inbound: 'ask-first' }),
  sentEntry(1, 'hello'),
  sentEntry(1, 'refused', { isQueued: false, reason: 'recipient refuses inbound messages' }),
  sentEntry(1, 'x', { peer: { as: 'api-service', sessionId: 'c3c3' } }),
  sentEntry(1, 'x', { peer: undefined }),
  sentEntry(1, 'x', withheld),
  receivedEntry(2, 'hi'),
  ...['queued', 'consumed', 'rejected', 'unknown'].map((outcome) => receivedEntry(2, 'hi', { outcome })),
  chainEntry(),
  chainEntry({ part: 'two' }),
];

/** Values a field may be given in a mutated entry: every JSON type, and near misses of each rule. */
const ODD_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, 2 ** 53, -0, '', 'x', 'sent', 'received', 'queued', 'delivered', [], [1], {}, { as: 1 }, { as: 'a', sessionId: 2 }, { as: '' },
  '2026-11-20T09:00:00.000Z', '2026-02-29T09:00:00.000Z', '2028-02-29T09:00:00.000Z', '2026-11-20T24:00:00.000Z', '2026-11-20T09:00:00Z', '2026-11-20T09:00:00.000+01:00',
  `sha256:${'ab'.repeat(32)}`, `sha256:${'AB'.repeat(32)}`, 'sha256:ab',
];
const FIELDS = ['kind', 'sessionId', 'at', 'cwd', 'host', 'version', 'inbound', 'side', 'peer', 'envelope', 'text', 'textLength', 'textHash', 'isQueued', 'reason', 'outcome', 'parent', 'part', 'brief'];

describe('reading an entry without the schemas', () => {
  it('the instant an entry is dated at is checked with the pattern zod checks it with', () => {
    const zodPattern = (z.iso.datetime({ precision: 3 }) as unknown as { _zod: { def: { pattern: RegExp } } })._zod.def.pattern;
    assert.equal(AT_PATTERN.source, zodPattern.source);
  });

  it('every form of entry the plugin writes is read without the schemas', () => {
    for (const entry of WRITTEN) assert.equal(readEntryFacts(bytesOf(entry)).outcome, 'entry', JSON.stringify(entry));
  });

  it('where it vouches for an entry, the schemas accept it and read the same facts, for thousands of entries with fields changed at random', () => {
    const random = createSeededRandom(11);
    const pick = <T,>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
    let vouched = 0;
    let left = 0;
    for (let i = 0; i < 20_000; i++) {
      const entry: Record<string, unknown> = { ...pick(WRITTEN) };
      for (let changes = 1 + Math.floor(random() * 3); changes > 0; changes--) {
        const field = pick(FIELDS);
        if (random() < 0.3) delete entry[field];
        else entry[field] = pick(ODD_VALUES);
      }
      const bytes = bytesOf(entry);
      const read = readEntryFacts(bytes);
      const value = JSON.parse(JSON.stringify(entry)) as Record<string, unknown>;
      const kind = value['kind'];
      if (kind !== 'start' && kind !== 'message' && kind !== 'chain') continue;
      const checked = checkEntry(kind, value, new TextDecoder().decode(bytes));
      if (read.outcome === 'unchecked') {
        left++;
        continue;
      }
      vouched++;
      assert.deepEqual(read, checked, JSON.stringify(entry));
    }
    // Both ways were taken often, or the claim says nothing.
    assert.ok(vouched > 1_000 && left > 1_000, `vouched for ${vouched}, left ${left} to the schemas`);
  });

  it('an entry in another form is left to the schemas, which say what is wrong with it', () => {
    const read = readEntryFacts(bytesOf(receivedEntry(2, 'x', { outcome: 'delivered' })));
    assert.equal(read.outcome, 'unchecked');
  });
});
