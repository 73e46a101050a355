import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from './seededRandom.ts';
import { mergeNewestFirst, orderNewestFirst } from './mergeSorted.ts';

// Lists in their writers' order, each put newest first and merged a few at a time: what a stable
// sort of them all would give, without sorting them all.

describe('newest first', () => {
  type Item = { at: string; session: number; position: number };
  const atOf = (item: Item) => item.at;

  it('sessions ordered one by one and merged come out as a stable sort of them all would give', () => {
    const random = createSeededRandom(7);
    for (let round = 0; round < 200; round++) {
      const sessions: Item[][] = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, session) => {
        // Mostly in time order, with equal times, and now and then out of order.
        let second = Math.floor(random() * 20);
        return Array.from({ length: Math.floor(random() * 12) }, (_, position) => {
          second += random() < 0.1 ? -3 : Math.floor(random() * 3);
          return { at: `2026-11-20T09:${String(Math.max(0, second)).padStart(2, '0')}:00.000Z`, session, position };
        });
      });
      const sorted = sessions.flat().sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
      const merged = mergeNewestFirst(sessions.map((list) => orderNewestFirst(list, atOf)), atOf);
      const taken: Item[] = [];
      while (merged.hasMore()) taken.push(...merged.take(1 + Math.floor(random() * 4)));
      assert.deepEqual(taken, sorted, `round ${round}`);
      assert.deepEqual(merged.take(3), []);
    }
  });
});
