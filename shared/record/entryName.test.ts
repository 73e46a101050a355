import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareEntryNames, missingBetween, parseEntryName } from './entryName.ts';

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

  it('a sequence number of any length is an entry, read exactly: a bigint past 2^53, a number below', () => {
    assert.equal(parseEntryName('2026-11-20T090001.005Z-0000000000000000000007.json')?.seq, 7);
    assert.equal(parseEntryName('2026-11-20T090001.005Z-9007199254740991.json')?.seq, 9_007_199_254_740_991);
    assert.equal(parseEntryName('2026-11-20T090001.005Z-9007199254740992.json')?.seq, 9_007_199_254_740_992n);
    assert.equal(parseEntryName(`2026-11-20T090001.005Z-${'9'.repeat(227)}.json`)?.seq, BigInt('9'.repeat(227)));
  });

  it('sequence numbers past 2^53 order exactly, among themselves and against small ones', () => {
    const seqs = ['12345678901234567892', '9007199254740993', '00012345678901234567890', '9007199254740991', '5', '12345678901234567891'];
    const sorted = seqs.map((seq) => parseEntryName(`2026-11-20T090001.000Z-${seq}.json`)!).sort(compareEntryNames).map((n) => n.name.slice(23, -5));
    assert.deepEqual(sorted, ['5', '9007199254740991', '9007199254740993', '00012345678901234567890', '12345678901234567891', '12345678901234567892']);
  });

  it('the numbers missing between two sequence numbers are counted exactly, at any size', () => {
    assert.deepEqual(missingBetween(2, 5), { from: 3, to: 4, count: 2 });
    assert.equal(missingBetween(2, 3), null);
    assert.equal(missingBetween(5, 2), null, 'a sequence that goes back is no gap');
    assert.deepEqual(missingBetween(12_345_678_901_234_567_890n, 12_345_678_901_234_567_892n), { from: 12_345_678_901_234_567_891n, to: 12_345_678_901_234_567_891n, count: 1 });
    assert.equal(missingBetween(12_345_678_901_234_567_890n, 12_345_678_901_234_567_891n), null);
    assert.deepEqual(missingBetween(9_007_199_254_740_990, 9_007_199_254_740_993n), { from: 9_007_199_254_740_991, to: 9_007_199_254_740_992n, count: 2 });
    assert.deepEqual(missingBetween(1, 10n ** 30n), { from: 2, to: 10n ** 30n - 1n, count: 10n ** 30n - 2n });
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

  it("a name is an entry's exactly when it matches the spec's pattern and names a real instant: twenty thousand names near the form", () => {
    // The spec's pattern (record-spec: entryFile), and a real instant told by Date: the reading's
    // own arithmetic is not what it is held to.
    const pattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})(\d{2})(\d{2})\.(\d{3})Z-(\d+)\.json$/;
    const expected = (name: string) => {
      const m = pattern.exec(name);
      if (m === null) return null;
      const [, year, month, day, hour, minute, second, ms, seq] = m as unknown as string[];
      const at = `${year}-${month}-${day}T${hour}:${minute}:${second}.${ms}Z`;
      const date = new Date(0);
      date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
      date.setUTCHours(Number(hour), Number(minute), Number(second), Number(ms));
      if (date.toISOString().slice(-24) !== at) return null;
      return { name, at, seq: BigInt(seq!) };
    };
    const swaps = ['0', '1', '2', '5', '9', '-', 'T', 'Z', '.', ':', 'a', '/', ' ', '\n', '\u0663', '\u0000', 'json'];
    let random = 7;
    const next = (below: number) => {
      random = (Math.imul(random, 1103515245) + 12345) >>> 0;
      return (random >>> 8) % below;
    };
    let entries = 0;
    for (let i = 0; i < 20_000; i++) {
      const year = String(1990 + next(130)).padStart(4, '0');
      const two = (below: number) => String(next(below)).padStart(2, '0');
      let name = `${year}-${two(14)}-${two(33)}T${two(26)}${two(62)}${two(62)}.${String(next(1000)).padStart(3, '0')}Z-${String(next(10 ** (1 + next(8))))}.json`;
      const edits = next(3);
      for (let e = 0; e < edits; e++) {
        const at = next(name.length + 1);
        const what = next(3);
        const swap = swaps[next(swaps.length)]!;
        name = what === 0 ? name.slice(0, at) + swap + name.slice(at + 1) : what === 1 ? name.slice(0, at) + swap + name.slice(at) : name.slice(0, at) + name.slice(at + 1);
      }
      const want = expected(name);
      const got = parseEntryName(name);
      if (want === null) assert.equal(got, null, JSON.stringify(name));
      else {
        entries++;
        assert.deepEqual(got === null ? null : { name: got.name, at: got.at, seq: BigInt(got.seq) }, want, JSON.stringify(name));
      }
    }
    assert.ok(entries > 2_000 && entries < 18_000, `some names are entries and some are not (${entries})`);
  });
});
