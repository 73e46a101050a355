import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareEntryNames, parseEntryName } from './entryName.ts';

describe('entry file names', () => {
  it('a name gives the entry time in ISO 8601 and the sequence number', () => {
    assert.deepEqual(parseEntryName('2026-11-20T090001.005Z-7.json'), { name: '2026-11-20T090001.005Z-7.json', at: '2026-11-20T09:00:01.005Z', seq: 7 });
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
    '.2026-11-20T090001.005Z-1.json',
    '2026-11-20T090001.005Z-1.JSON',
  ]) {
    it(`a file named ${JSON.stringify(stray)} is not an entry`, () => {
      assert.equal(parseEntryName(stray), null);
    });
  }
});
