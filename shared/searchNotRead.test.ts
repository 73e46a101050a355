import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NotReadTally } from './searchNotRead.ts';

const PARTS = { lines: { one: 'damaged line', many: 'damaged lines' }, segments: { one: 'unreadable segment', many: 'unreadable segments' } } as const;

test('a tally of nothing says nothing: a search that read everything has no note', () => {
  const tally = new NotReadTally(PARTS);
  tally.add('lines', 0);
  assert.equal(tally.say(), null);
});

test("a tally lists its parts in the kind's order, each agreeing with its count, and counts them all", () => {
  const tally = new NotReadTally(PARTS);
  tally.add('segments');
  tally.add('lines', 1200);
  tally.add('lines');
  assert.deepEqual(tally.say(), { items: 1202, why: '1,201 damaged lines and 1 unreadable segment were not searched, and may hold matches' });
});
