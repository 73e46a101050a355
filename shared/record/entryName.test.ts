import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareEntryNames, parseEntryName } from './entryName.ts';

describe('entry file names', () => {
  it('a name gives the entry time in ISO 8601 and the sequence number', () => {
    assert.deepEqual(parseEntryName('2026-11-20T090001.005Z-7.json'), { name: '2026-11-20T090001.005Z-7.json', at: '2026-11-20T09:00:01.005Z', seq: 7 });
  });

  it('the 29th of February is a day in a leap year', () => {
    assert.equal(parseEntryName('2028-02-29T235959.999Z-1.json')?.at, '2028-02-29T23:59:59.999Z');
    assert.equal(parseEntryName('2000-02-29T000000.000Z-1.json')?.at, '2000-02-29T00:00:00.000Z');
    assert.equal(parseEntryName('2100-02-29T000000.000Z-1.json'), null);
  });

  it('a zero-padded sequence reads as the same number', () => {
    assert.equal(parseEntryName('2026-11-20T090001.005Z-0007.json')?.seq, 7);
  });

  it('entries order by time and numeric sequence: -9 comes before -10 in the same millisecond', () => {
    const names = ['2026-11-20T090001.000Z-10.json', '2026-11-20T090001.000Z-9.json', '2026-11-20T090000.999Z-11.json'];
    const sorted = names.map((n) => parseEntryName(n)!).sort(compareEntryNames).map((n) => n.name);
    assert.deepEqual(sorted, ['2026-11-20T090000.999Z-11.json', '2026-11-20T090001.000Z-9.json', '2026-11-20T090001.000Z-10.json']);
  });

  for (const stray of [
    'notes.txt',
    '2026-11-20T09:00:01.005Z-1.json', // colons kept
    '2026-11-20T090001Z-1.json', // no milliseconds
    '2026-11-20T090001.005Z.json', // no sequence
    '2026-11-20T090001.005Z--1.json',
    '2026-11-20T090001.005Z-1.json.tmp',
    '2026-13-20T090001.005Z-1.json', // month 13
    '2026-11-20T250001.005Z-1.json', // hour 25
    '2026-02-29T090001.005Z-1.json', // not a leap year
    '2026-04-31T090001.005Z-1.json', // April has 30 days
    '2026-11-20T096001.005Z-1.json', // minute 60
    '2026-11-00T090001.005Z-1.json', // day 0
    '.2026-11-20T090001.005Z-1.json',
    '2026-11-20T090001.005Z-1.JSON',
  ]) {
    it(`a file named ${JSON.stringify(stray)} is not an entry`, () => {
      assert.equal(parseEntryName(stray), null);
    });
  }
});
