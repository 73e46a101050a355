import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ONE, TWO, encode, lineOf } from '../../shared/spex/fixtures.test.ts';
import { createSegmentReading, readSegmentBytes } from '../../shared/spex/segment.ts';

// What a spex segment's reading holds, measured on the heap: in a process of its own (this tier
// runs each file in one), since the fast tier's one process shares its heap with every other
// file, and what they hold and free made this measure fail there at three times its size.

const SEGMENT = 'timeline/000000000001.ndjson';

describe('what a segment holds of its lines', () => {
  it('a segment of 50,000 lines spex writes holds their facts in columns, not an object of each line, its time and its id', () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const lines = 50_000;
    let log = '';
    for (let i = 0; i < lines; i++) {
      const ts = new Date(Date.UTC(2026, 10, 30) + i * 1_000).toISOString();
      log +=
        i % 10 === 0
          ? lineOf({ ts, kind: 'status', status: 'awaiting', proposal: 'merge', note: `round ${i}` })
          : lineOf({ ts, kind: 'sent', mid: `${i}-0000-4000-8000-${String(i).padStart(12, '0')}`, text: `message ${i}`, from: i % 3 === 0 ? null : i % 2 === 0 ? ONE : TWO });
    }
    const bytes = encode(log);
    log = '';
    // The least of three is taken: the collector's timing can only blur a measure.
    const measured: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      collect();
      const before = process.memoryUsage();
      const reading = createSegmentReading(SEGMENT);
      readSegmentBytes(reading, bytes, { closed: true });
      collect();
      const after = process.memoryUsage();
      assert.equal(reading.offset, bytes.length);
      measured.push((after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / lines);
    }
    const perLine = Math.min(...measured);
    // Its byte range, time, shape, facts and id: about 70 bytes; an object a line held some 300.
    assert.ok(perLine < 120, `${measured.map((one) => one.toFixed(0)).join(', ')} bytes a line`);
  });
});
