import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from '../seededRandom.ts';
import { formatTime, parseInstant, readZone } from './time.ts';

describe('the instant a sac time names', () => {
  it('a time with its offset names the same instant as Date.parse reads it', () => {
    for (const time of ['2026-11-30T17:18:53.482+00:00', '2026-08-09T12:40:27.796+02:00', '2026-03-29T01:59:59.999-05:30', '2026-11-30T17:18:53Z', '2026-11-30T17:18Z']) {
      assert.equal(parseInstant(time), Date.parse(time), time);
    }
  });

  it('two texts an hour apart across a DST switch order by instant, not by text', () => {
    const before = parseInstant('2026-10-25T02:30:00.000+02:00')!;
    const after = parseInstant('2026-10-25T02:10:00.000+01:00')!;
    assert.ok(after > before);
  });

  it('a time without an offset names no instant: the writer’s local time cannot be placed', () => {
    assert.equal(parseInstant('2026-11-30T17:18:53.482'), null);
  });

  it('what the header pattern admits but no calendar holds names no instant', () => {
    for (const time of ['2026-11-30T1:2:3', '2026-02-30T10:00:00Z', '2026-13-01T10:00:00Z', '2026-11-30T24:00:00Z', '2026-11-30T10:00:00.Z', '2026-11-30T10:00:00+24:00', '2026-11-30T10.00Z']) {
      assert.equal(parseInstant(time), null, time);
    }
  });

  it('digits past the millisecond are cut, not rounded', () => {
    assert.equal(parseInstant('2026-11-30T17:18:53.4829+00:00'), parseInstant('2026-11-30T17:18:53.482+00:00'));
  });

  it('a leap day is a day, and a year before 100 is that year', () => {
    assert.equal(parseInstant('2028-02-29T00:00:00Z'), Date.UTC(2028, 1, 29));
    assert.equal(new Date(parseInstant('0050-01-01T00:00:00Z')!).getUTCFullYear(), 50);
  });
});

describe('a time kept as a number', () => {
  it('every time in the form sac’s writer writes comes back, exactly as written, from its instant and its zone', () => {
    const random = createSeededRandom(3);
    const two = (n: number) => String(n).padStart(2, '0');
    for (let i = 0; i < 5_000; i++) {
      const year = String(Math.floor(random() * 10_000)).padStart(4, '0');
      const month = 1 + Math.floor(random() * 12);
      const day = 1 + Math.floor(random() * 28);
      const zone = random() < 0.1 ? 'Z' : `${random() < 0.5 ? '-' : '+'}${two(Math.floor(random() * 24))}:${two(Math.floor(random() * 60))}`;
      const time = `${year}-${two(month)}-${two(day)}T${two(Math.floor(random() * 24))}:${two(Math.floor(random() * 60))}:${two(Math.floor(random() * 60))}.${String(Math.floor(random() * 1000)).padStart(3, '0')}${zone}`;
      const instant = parseInstant(time)!;
      assert.equal(formatTime(instant, readZone(time)!), time);
    }
  });

  it('-00:00 is not +00:00, and a leap day stays a leap day', () => {
    for (const time of ['2026-11-30T17:18:53.482-00:00', '2026-11-30T17:18:53.482+00:00', '2028-02-29T23:59:59.999-14:00', '0000-01-01T00:00:00.000+05:00']) {
      assert.equal(formatTime(parseInstant(time)!, readZone(time)!), time);
    }
  });

  it('a time in another form has no zone to keep: it is kept as written', () => {
    for (const time of ['2026-11-30T17:18:53Z', '2026-11-30T17:18:53.4829+00:00', '2026-11-30T17:18:53.482', '2026-02-30T10:00:00.000Z']) assert.equal(readZone(time), null, time);
  });
});
