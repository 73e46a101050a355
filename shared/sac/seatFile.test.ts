import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSeededRandom } from '../seededRandom.ts';
import { ENTRY_HEADER, readHeader } from './entryHeader.ts';
import {
  adoptSeatFileReading,
  awaitsWriter,
  countEntries,
  createSeatFileReading,
  listDegradedRanges,
  listEntries,
  noteSeatFileChanged,
  noteSeatFileUnreadable,
  packSeatFileReading,
  readBodyText,
  readEntry,
  readRawText,
  readSeatFile,
  SeatFileReading,
} from './seatFile.ts';
import { EXAMPLE_STORE } from './testing/exampleStore.ts';
import { readByLines } from './testing/readByLines.ts';
import { appendedBytes, bytesOf, writtenFile, type AppendedEntry } from './testing/sacWriter.ts';

const API = 'api-service#c4e10000';

function readWhole(bytes: Uint8Array, seat = API): SeatFileReading {
  return readSeatFile(createSeatFileReading('team', seat), bytes, 0);
}

/** Bodies as sac's `parse` gives them: read again from each entry's byte range. */
function bodies(reading: SeatFileReading, bytes: Uint8Array): string[] {
  return listEntries(reading).map((entry) => readBodyText(bytes.subarray(entry.bodyStart, entry.end)));
}

/** sac's own `parse` (store.mjs), transliterated: the reference a complete file must agree with. */
function parseAsSac(raw: string): { ts: string; type: string; to: string[]; re: string | null; text: string }[] {
  const legacy: Record<string, string> = { KÉRDÉS: 'QUESTION', VÁLASZ: 'ANSWER', TÉNY: 'FACT', KÉRÉS: 'REQUEST' };
  const out: { ts: string; type: string; to: string[]; re: string | null; lines: string[] }[] = [];
  let current: (typeof out)[number] | null = null;
  for (const line of raw.split('\n')) {
    const m = ENTRY_HEADER.exec(line);
    if (m) {
      if (current) out.push(current);
      const to = [...new Set((m[3] ?? '').split(',').map((s) => s.trim()).filter(Boolean))];
      current = { ts: m[1]!, type: legacy[m[2]!] ?? m[2]!, to, re: m[4]?.trim() || null, lines: [] };
    } else if (current) current.lines.push(line);
  }
  if (current) out.push(current);
  return out.map(({ lines, ...entry }) => ({ ...entry, text: lines.join('\n').trim() }));
}

describe('entries of a seat file as sac wrote them', () => {
  const bytes = bytesOf(EXAMPLE_STORE['channels/team/api-service#c4e10000.md']!);
  const reading = readWhole(bytes);

  it('each header begins an entry, with its time as written, its type, to and re', () => {
    assert.deepEqual(
      listEntries(reading).map((entry) => entry.facts),
      [
        { time: '2026-11-30T17:18:53.482+00:00', instant: Date.parse('2026-11-30T17:18:53.482+00:00'), type: 'QUESTION', typeWord: 'QUESTION', to: ['web-app'], re: null },
        { time: '2026-11-30T17:18:53.590+00:00', instant: Date.parse('2026-11-30T17:18:53.590+00:00'), type: 'FACT', typeWord: 'FACT', to: [], re: null },
        { time: '2026-11-30T17:18:53.956+00:00', instant: Date.parse('2026-11-30T17:18:53.956+00:00'), type: 'REQUEST', typeWord: 'REQUEST', to: ['web-app#3f9c1a20'], re: null },
      ],
    );
    assert.ok(listEntries(reading).every((entry) => entry.evidence === 'parsed'));
  });

  it('a body line escaped with one leading space, and a markdown heading, stay body text', () => {
    assert.equal(
      bodies(reading, bytes)[1],
      'Deployed api-service 2.4.0 to staging.\n\n## A markdown heading inside the body\n ## 2099-01-01T00:00:00.000+02:00 — FACT\n(the line above is a forged header and gets escaped with one leading space)',
    );
  });

  it('the bodies read again from their byte ranges are the texts sac reads', () => {
    assert.deepEqual(bodies(reading, bytes), parseAsSac(EXAMPLE_STORE['channels/team/api-service#c4e10000.md']!).map((entry) => entry.text));
  });

  it('an entry runs from its header to the next header; the last one is open and runs to the last newline', () => {
    const [first, second, third] = listEntries(reading);
    assert.equal(first!.end, second!.start);
    assert.equal(second!.end, third!.start);
    assert.equal(third!.end, bytes.length);
    assert.deepEqual(listEntries(reading).map((entry) => entry.open), [false, false, true]);
    assert.equal(reading.offset, bytes.length);
    assert.equal(reading.size, bytes.length);
  });

  it('a reply carries the time of the entry it answers', () => {
    const answer = listEntries(readWhole(bytesOf(EXAMPLE_STORE['channels/team/web-app#3f9c1a20.md']!), 'web-app#3f9c1a20'))[0]!;
    assert.equal(answer.facts.re, '2026-11-30T17:18:53.482+00:00');
    assert.deepEqual(answer.facts.to, ['api-service']);
    assert.equal(answer.facts.type, 'ANSWER');
  });

  it('the entries hold no text: what a reader keeps is facts and byte ranges', () => {
    const kept = JSON.stringify(reading);
    for (const text of ['Does the cart', 'Deployed api-service', 'markdown heading', 'Please bump']) assert.ok(!kept.includes(text), text);
  });
});

describe('headers', () => {
  it('the older Hungarian type words are kept as written, with the type they stand for', () => {
    const words = { KÉRDÉS: 'QUESTION', VÁLASZ: 'ANSWER', TÉNY: 'FACT', KÉRÉS: 'REQUEST' };
    for (const [word, type] of Object.entries(words)) {
      const facts = readHeader(`## 2026-08-03T18:42:07.318+02:00 — ${word}`);
      assert.equal(facts?.typeWord, word);
      assert.equal(facts?.type, type);
    }
  });

  it('to is comma-separated and trimmed, repeats dropped; none is to everyone', () => {
    assert.deepEqual(readHeader('## 2026-08-03T18:42:07.318+02:00 — FACT →  web-app ,api-service#c4e10000,, web-app ')?.to, ['web-app', 'api-service#c4e10000']);
    assert.deepEqual(readHeader('## 2026-08-03T18:42:07.318+02:00 — FACT')?.to, []);
    assert.deepEqual(readHeader('## 2026-08-03T18:42:07.318+02:00 — QUESTION → web-app@macmini (re: 2026-08-03T18:40:11.002+02:00)'), {
      time: '2026-08-03T18:42:07.318+02:00',
      instant: Date.parse('2026-08-03T18:42:07.318+02:00'),
      type: 'QUESTION',
      typeWord: 'QUESTION',
      to: ['web-app@macmini'],
      re: '2026-08-03T18:40:11.002+02:00',
    });
  });

  it('a time the header pattern admits without an offset is kept as written and names no instant', () => {
    const facts = readHeader('## 2026-08-03T18:42:07 — FACT');
    assert.equal(facts?.time, '2026-08-03T18:42:07');
    assert.equal(facts?.instant, null);
  });

  it('what is not exactly sac’s header is not a header', () => {
    for (const line of [
      '## 2026-08-03T18:42:07.318+02:00 - FACT',
      '## 2026-08-03T18:42:07.318+02:00 — NOTE',
      ' ## 2026-08-03T18:42:07.318+02:00 — FACT',
      '## Hatókör — megerősítve',
      '##2026-08-03T18:42:07.318+02:00 — FACT',
      '## 2026-08-03 — FACT',
      '## 2026-08-03T18:42:07.318+02:00 — FACT trailing',
    ]) {
      assert.equal(readHeader(line), null, line);
    }
  });

  it('a carriage return at the end of a header line is white space, as in sac’s pattern', () => {
    assert.deepEqual(readHeader('## 2026-08-03T18:42:07.318+02:00 — FACT → web-app\r')?.to, ['web-app']);
  });
});

describe('what is not an entry', () => {
  it('a 0-byte file is a seat that joined and never wrote', () => {
    const reading = readWhole(new Uint8Array(0));
    assert.equal(reading.size, 0);
    assert.deepEqual(reading.items, []);
  });

  it('text before the first header is stray text of the file, shown as written', () => {
    const bytes = bytesOf('notes by hand\n\n## 2026-11-30T17:18:53.482+00:00 — FACT\nhello\n');
    const reading = readWhole(bytes);
    assert.deepEqual(reading.items[0], { type: 'stray-text', start: 0, end: 15, evidence: 'stray', why: 'text before the first header: not an entry' });
    assert.equal(readRawText(bytes.subarray(0, 15)), 'notes by hand\n\n');
    assert.equal(listEntries(reading).length, 1);
  });

  it('a byte-order mark before the first header makes that line stray text, as sac reads the file', () => {
    const bytes = bytesOf('\uFEFF## 2026-11-30T17:18:53.482+00:00 — FACT\nhello\n');
    const reading = readWhole(bytes);
    assert.deepEqual(reading.items.map((item) => item.type), ['stray-text']);
    assert.ok(readRawText(bytes).startsWith('\uFEFF'));
  });

  it('a header whose body is only white space of any kind (a no-break space too) has no body; one letter is a body', () => {
    const blank = readWhole(bytesOf('## 2026-11-30T17:18:53.482+00:00 — FACT\n\u00a0\u3000\t\n\n## 2026-11-30T17:18:53.590+00:00 — FACT\né\n'));
    assert.deepEqual(listEntries(blank).map((entry) => entry.evidence), ['damaged', 'parsed']);
  });

  it('a file of stray text only is stray text, growing as lines complete', () => {
    let reading = readWhole(bytesOf('one\ntw'));
    assert.deepEqual(reading.items.map((item) => [item.type, item.start, item.end]), [['stray-text', 0, 4], ['tail', 4, 6]]);
    reading = readSeatFile(reading, bytesOf('two\n'), 4);
    assert.deepEqual(reading.items.map((item) => [item.type, item.start, item.end]), [['stray-text', 0, 8]]);
  });
});

describe('a write in progress: pending, then torn', () => {
  const first: AppendedEntry = { ts: '2026-11-30T17:18:53.482+00:00', type: 'QUESTION', text: 'Does the cart still POST /v1/orders?', to: ['web-app'] };
  const second: AppendedEntry = { ts: '2026-11-30T17:18:53.590+00:00', type: 'FACT', text: 'Deployed 2.4.0.' };
  const whole = writtenFile([first, second]);
  const firstEnd = writtenFile([first]).length;

  it('bytes after the last newline are pending, and the next read takes them up again', () => {
    const cut = firstEnd + 20;
    const reading = readWhole(whole.subarray(0, cut));
    assert.equal(reading.offset, firstEnd + 1);
    assert.deepEqual(reading.items.at(-1), { type: 'tail', start: firstEnd + 1, end: cut, evidence: 'pending', why: 'a line still being written' });
    assert.equal(awaitsWriter(reading), true);
    const done = readSeatFile(reading, whole.subarray(reading.offset), reading.offset);
    assert.deepEqual(done, readWhole(whole));
    assert.equal(awaitsWriter(done), false);
  });

  it('a line cut mid-write is pending, then torn when the pending window passes, in its place', () => {
    const cut = firstEnd + 20;
    const pending = readWhole(whole.subarray(0, cut));
    const torn = readSeatFile(pending, whole.subarray(pending.offset, cut), pending.offset, { pendingWindowPassed: true });
    const tail = torn.items.at(-1)!;
    assert.equal(tail.type, 'tail');
    assert.equal(tail.evidence, 'damaged');
    assert.match(tail.why!, /torn/);
    assert.equal(listEntries(torn)[0]!.evidence, 'parsed');
    assert.equal(awaitsWriter(torn), false);
  });

  it('a torn tail stays torn while it grows without ending its line', () => {
    const cut = firstEnd + 20;
    const torn = readSeatFile(readWhole(whole.subarray(0, cut)), whole.subarray(firstEnd + 1, cut), firstEnd + 1, { pendingWindowPassed: true });
    const grown = readSeatFile(torn, whole.subarray(torn.offset, cut + 5), torn.offset);
    assert.equal(grown.items.at(-1)!.evidence, 'damaged');
    assert.equal(grown.items.at(-1)!.end, cut + 5);
  });

  it('a header whose body has not arrived is pending, then torn; a body that arrives makes it parsed', () => {
    const header = bytesOf(appendedBytes(0, first).split('\n')[0] + '\n');
    const pending = readWhole(header);
    assert.equal(listEntries(pending)[0]!.evidence, 'pending');
    assert.equal(awaitsWriter(pending), true);
    const torn = readSeatFile(pending, new Uint8Array(0), pending.offset, { pendingWindowPassed: true });
    assert.equal(listEntries(torn)[0]!.evidence, 'damaged');
    assert.match(listEntries(torn)[0]!.why!, /body has no whole line beyond the time a write is given to complete: a write cut short \(torn\), shown as far as it was written/);
    const bytes = writtenFile([first]);
    const later = readSeatFile(torn, bytes.subarray(torn.offset), torn.offset);
    assert.equal(listEntries(later)[0]!.evidence, 'parsed');
  });

  it('a send cut after its header and part of its body is one write: one entry to the end of the file, pending, then torn, and no tail of its own', () => {
    const cut = firstEnd + 1 + appendedBytes(firstEnd, second).indexOf('Deployed') + 4;
    const pending = readWhole(whole.subarray(0, cut));
    assert.deepEqual(pending.items.slice(1).map((item) => [item.type, item.start, item.end, item.evidence]), [['entry', firstEnd + 1, cut, 'pending']]);
    const torn = readSeatFile(pending, whole.subarray(pending.offset, cut), pending.offset, { pendingWindowPassed: true });
    assert.deepEqual(torn.items.slice(1).map((item) => [item.type, item.start, item.end, item.evidence]), [['entry', firstEnd + 1, cut, 'damaged']]);
    assert.deepEqual(listDegradedRanges(torn), [{ code: 'torn-entry', start: firstEnd + 1, end: cut }]);
    const done = readSeatFile(torn, whole.subarray(torn.offset), torn.offset);
    assert.deepEqual(done.items.slice(1).map((item) => [item.type, item.evidence]), [['entry', 'parsed']]);
  });

  it('a header with no body and a later entry after it is a torn write at once', () => {
    const bytes = bytesOf('## 2026-11-30T17:18:53.482+00:00 — QUESTION → web-app\n\n## 2026-11-30T17:18:53.590+00:00 — FACT\nDeployed.\n');
    const [cut, next] = listEntries(readWhole(bytes));
    assert.equal(cut!.evidence, 'damaged');
    assert.match(cut!.why!, /no body/);
    assert.equal(next!.evidence, 'parsed');
  });

  it('a torn write taken up by the next append leaves its entry damaged: no empty line before the next header', () => {
    // The first send stopped after 10 bytes of its body; the next send began with its `\n`.
    const cutWrite = appendedBytes(0, first).slice(0, -20);
    const bytes = bytesOf(cutWrite + appendedBytes(cutWrite.length, second));
    const [cut, next] = listEntries(readWhole(bytes));
    assert.equal(cut!.evidence, 'damaged');
    assert.match(cut!.why!, /without the empty line/);
    assert.equal(next!.evidence, 'parsed');
  });

  it('a send cut inside its header leaves a line that is no header, taken as the body before it, which is then damaged', () => {
    const cutWrite = bytesOf(appendedBytes(writtenFile([first]).length, second).slice(0, 12));
    const bytes = new Uint8Array([...writtenFile([first]), ...cutWrite, ...bytesOf(appendedBytes(1, second))]);
    const entries = listEntries(readWhole(bytes));
    assert.equal(entries.length, 2);
    assert.equal(entries[0]!.evidence, 'damaged');
    assert.equal(entries[1]!.evidence, 'parsed');
  });
});

describe('bytes changed after they were read', () => {
  const bytes = bytesOf(EXAMPLE_STORE['channels/team/api-service#c4e10000.md']!);

  it('a file found shorter than what was read was rewritten: changed, each entry keeps what it said', () => {
    const read = readWhole(bytes);
    const shrunk = readSeatFile(read, bytes.subarray(0, 40), 0);
    assert.equal(shrunk.problem?.code, 'changed-after-read');
    assert.match(shrunk.problem!.why, /shrank from \d+ to 40 bytes/);
    assert.deepEqual(listEntries(shrunk).map((entry) => entry.facts), listEntries(read).map((entry) => entry.facts));
    assert.ok(shrunk.items.every((item) => item.evidence === 'changed'));
  });

  it('a file whose read bytes changed (the caller’s fingerprint says so) is never read again as new data', () => {
    const changed = noteSeatFileChanged(readWhole(bytes), 'bytes already read are different');
    const more = bytesOf(appendedBytes(bytes.length, { ts: '2026-11-30T18:00:00.000+00:00', type: 'FACT', text: 'more' }));
    const after = readSeatFile(changed, more, changed.offset);
    assert.equal(after, changed);
    assert.equal(listEntries(after).length, 3);
  });

  it('a pending tail that shrinks was rewritten too: sac only appends', () => {
    const partial = readWhole(bytes.subarray(0, bytes.length - 5));
    const shorter = readSeatFile(partial, bytes.subarray(partial.offset, partial.size - 3), partial.offset);
    assert.equal(shorter.problem?.code, 'changed-after-read');
  });

  it('a file that could not be read keeps what was read, and reads on when it can be read again', () => {
    const half = readWhole(bytes.subarray(0, 100));
    const unreadable = noteSeatFileUnreadable(half, 'permission denied');
    assert.deepEqual(unreadable.problem, { code: 'unreadable', why: 'permission denied' });
    assert.deepEqual(unreadable.items, half.items);
    const again = readSeatFile(unreadable, bytes.subarray(unreadable.offset), unreadable.offset);
    assert.deepEqual(again, readWhole(bytes));
  });

  it('bytes given from past the offset cannot be placed: the file reads as unreadable, nothing is guessed', () => {
    const half = readWhole(bytes.subarray(0, 100));
    const skipped = readSeatFile(half, bytes.subarray(half.offset + 10), half.offset + 10);
    assert.equal(skipped.problem?.code, 'unreadable');
    assert.deepEqual(skipped.items, half.items);
  });

  it('bytes given from before the offset are taken from the offset on', () => {
    const half = readWhole(bytes.subarray(0, 100));
    assert.deepEqual(readSeatFile(half, bytes, 0), readWhole(bytes));
  });
});

describe('incremental reading equals reading the whole file', () => {
  const words = ['cart', 'ÁRVÍZTŰRŐ', 'tükörfúrógép', '🙂', 'v2', '—', '→', 'naïve', '日本語'];
  const types = ['QUESTION', 'ANSWER', 'FACT', 'REQUEST', 'KÉRDÉS', 'VÁLASZ', 'TÉNY', 'KÉRÉS'];

  function randomFile(random: () => number): Uint8Array {
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const entries: AppendedEntry[] = [];
    const count = 1 + Math.floor(random() * 8);
    for (let i = 0; i < count; i++) {
      const lines: string[] = [];
      for (let l = 0; l < 1 + Math.floor(random() * 4); l++) {
        const roll = random();
        if (roll < 0.1) lines.push('');
        else if (roll < 0.2) lines.push(`## 2099-01-01T00:00:00.000+02:00 — ${pick(types)}`);
        else if (roll < 0.3) lines.push(`## ${pick(words)} heading`);
        else lines.push(Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(words)).join(' '));
      }
      if (lines.join('').trim() === '') lines.push(pick(words));
      const ms = String(100 + i).padStart(3, '0');
      entries.push({
        ts: `2026-11-30T17:18:${pick(['53', '54'])}.${ms}${pick(['+00:00', '+02:00', '-05:30', 'Z'])}`,
        type: pick(types),
        text: lines.join('\n'),
        ...(random() < 0.4 ? { to: [pick(['web-app', 'api-service#c4e10000', 'web-app@macmini'])] } : {}),
        ...(random() < 0.3 ? { re: '2026-11-30T17:18:53.482+00:00' } : {}),
      });
    }
    const file = writtenFile(entries);
    return random() < 0.2 ? new Uint8Array([...bytesOf(`stray ${pick(words)}\n`), ...file]) : file;
  }

  it('feeding a file as it grows, cut at random points (inside UTF-8 sequences too), gives at each step what reading that prefix whole gives', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = createSeededRandom(seed);
      const bytes = randomFile(random);
      const cuts = Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * (bytes.length + 1))).sort((a, b) => a - b);
      cuts.push(bytes.length);
      let reading = createSeatFileReading('team', API);
      for (const cut of cuts) {
        reading = readSeatFile(reading, bytes.subarray(reading.offset, cut), reading.offset);
        assert.deepEqual(reading, readWhole(bytes.subarray(0, cut)), `seed ${seed}, cut at ${cut}`);
      }
      assert.deepEqual(reading, readWhole(bytes), `seed ${seed}`);
    }
  });

  it('a read of more entries than a read first has room for (thousands, then tens of thousands) gives each entry as reading the file in pieces does, and the next file reads as if alone', () => {
    // Entry i is entry i % 1,000 again: a file of tens of thousands is composed from a thousand.
    const entriesOf = (count: number, salt: number): AppendedEntry[] =>
      Array.from({ length: count }, (_, n) => {
        const i = n % 1000;
        return {
          ts: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T17:18:53.${String(i).padStart(3, '0')}${i % 5 === 0 ? 'Z' : '+02:00'}`,
          type: types[(i + salt) % 4]!,
          text: `body ${i}`,
          ...(i % 7 === 0 ? { to: [`agent-${(i + salt) % 11}`] } : {}),
          ...(i % 13 === 0 ? { re: `2026-11-30T17:18:53.${String(i).padStart(3, '0')}+00:00` } : {}),
        };
      });
    // As writtenFile writes them: what sac appends after the first entry does not depend on where.
    const fileOf = (count: number, salt: number): Uint8Array => {
      const block = entriesOf(Math.min(count, 1000), salt);
      const after = block.map((entry) => appendedBytes(1, entry));
      let text = appendedBytes(0, block[0]!);
      for (let n = 1; n < count; n++) text += after[n % 1000];
      return bytesOf(text);
    };
    const small = fileOf(3, 1);
    const alone = readWhole(small);
    for (const count of [3_000, 70_000]) {
      const bytes = fileOf(count, count);
      const whole = readWhole(bytes);
      let pieces = createSeatFileReading('team', API);
      // Eight pieces, cut anywhere: each piece's entries join those before.
      for (let piece = 1; piece < 8; piece++) pieces = readSeatFile(pieces, bytes.subarray(pieces.offset, Math.floor((bytes.length * piece) / 8)), pieces.offset);
      pieces = readSeatFile(pieces, bytes.subarray(pieces.offset), pieces.offset);
      // Compared by their columns' bytes and their lists (a diff of tens of thousands of entries takes minutes to show).
      const columnsOf = (reading: SeatFileReading) => {
        const { lists, re, written, ...numbers } = reading.entries;
        return { lists, re, written, numbers: Object.fromEntries(Object.entries(numbers).map(([key, column]) => [key, Buffer.from(column.buffer, column.byteOffset, column.byteLength).toString('base64')])) };
      };
      assert.equal(countEntries(whole), count);
      assert.deepEqual(columnsOf(pieces), columnsOf(whole), `${count} entries`);
      assert.deepEqual([whole.offset, whole.size, whole.scan], [pieces.offset, pieces.size, pieces.scan]);
      const times = entriesOf(1000, count).map((entry) => entry.ts);
      for (const i of [0, 1, 1023, 1024, 1025, 65_537, count - 1]) assert.equal(readEntry(whole, i % count).facts.time, times[(i % count) % 1000], `entry ${i % count} of ${count}`);
      assert.deepEqual(readWhole(small), alone, `a small file after ${count} entries`);
    }
  });

  it('a whole file written by sac’s writer reads as sac’s own parse reads it', () => {
    const decoder = new TextDecoder();
    for (let seed = 1; seed <= 300; seed++) {
      const bytes = randomFile(createSeededRandom(seed));
      const reading = readWhole(bytes);
      const sac = parseAsSac(decoder.decode(bytes));
      assert.deepEqual(
        listEntries(reading).map((entry, i) => ({ ts: entry.facts.time, type: entry.facts.type, to: entry.facts.to, re: entry.facts.re, text: bodies(reading, bytes)[i] })),
        sac,
        `seed ${seed}`,
      );
      assert.ok(listEntries(reading).every((entry) => entry.evidence === 'parsed'), `seed ${seed}`);
    }
  });
});

describe('what a reading holds of an entry: numbers and shared names', () => {
  const entries = Array.from({ length: 50 }, (_, i): AppendedEntry => ({
    ts: `2026-11-30T17:${String(10 + (i % 40)).padStart(2, '0')}:53.${String(i).padStart(3, '0')}${i % 2 === 0 ? '+02:00' : '-00:00'}`,
    type: ['QUESTION', 'ANSWER', 'FACT', 'KÉRÉS'][i % 4]!,
    text: `body ${i}`,
    ...(i % 3 === 0 ? { to: ['web-app', 'api-service#c4e10000'] } : {}),
  }));
  const bytes = writtenFile(entries);
  const reading = readWhole(bytes);

  it('a time in the form sac writes is kept as its instant and zone, and given back exactly as written', () => {
    const kept = JSON.stringify(reading);
    for (const entry of entries) assert.ok(!kept.includes(entry.ts.slice(0, 19)), entry.ts);
    assert.deepEqual(listEntries(reading).map((entry) => entry.facts.time), entries.map((entry) => entry.ts));
  });

  it('entries addressed alike share one list of addressees, which no one can change', () => {
    const lists = listEntries(reading).filter((entry) => entry.facts.to.length > 0).map((entry) => entry.facts.to);
    assert.equal(lists.length, 17);
    assert.ok(lists.every((list) => list === lists[0]));
    assert.ok(Object.isFrozen(lists[0]));
    assert.equal(listEntries(reading)[1]!.facts.to, listEntries(readWhole(writtenFile([{ ts: '2026-11-30T17:18:53.482+00:00', type: 'FACT', text: 'x' }])))[0]!.facts.to);
  });

  it('a read keeps its entries in one buffer of numbers, with no object, list slot or text of its own an entry', () => {
    const grown = readSeatFile(reading, bytesOf(`${new TextDecoder().decode(bytes)}\n## 2026-11-30T18:00:00.000+00:00 — ANSWER → ops (re: x)\nmore\n`), 0);
    for (const each of [reading, grown]) {
      const { start, instant, headerLength, to, zone, word, state } = each.entries;
      for (const column of [instant, headerLength, to, zone, word, state]) assert.equal(column.buffer, start.buffer);
      const perEntry = Object.values(each.entries).filter((value) => (Array.isArray(value) ? value.length : value instanceof Map ? value.size : 0) >= 50);
      assert.deepEqual(perEntry, []);
    }
    const last = listEntries(grown).at(-1)!;
    assert.deepEqual([last.facts.to, last.facts.re], [['ops'], 'x']);
    assert.deepEqual(listEntries(grown).slice(0, 50).map((entry) => entry.facts), listEntries(reading).map((entry) => entry.facts));
  });
});

describe('columns as narrow as the numbers they hold', () => {
  it('an entry as sac writes it is kept in 20 bytes of numbers, its start, header length and addressees narrow', () => {
    const entries = Array.from({ length: 100 }, (_, i): AppendedEntry => ({ ts: `2026-11-30T17:18:${String(i % 60).padStart(2, '0')}.482+00:00`, type: 'FACT', text: `body ${i}`, ...(i % 2 === 0 ? { to: [`seat-${i}`] } : {}) }));
    const reading = readWhole(writtenFile(entries));
    assert.equal(countEntries(reading), 100);
    assert.equal(reading.entries.instant.buffer.byteLength, 100 * 20);
  });

  it('a header of 64 KiB or more is kept whole, its body where it begins, here and as a scan thread hands it over', () => {
    const to = Array.from({ length: 9_000 }, (_, i) => `agent-${i}`);
    const bytes = writtenFile([
      { ts: '2026-11-30T17:18:53.482+00:00', type: 'FACT', text: 'short' },
      { ts: '2026-11-30T17:18:54.482+00:00', type: 'QUESTION', text: 'to many', to },
      { ts: '2026-11-30T17:18:55.482+00:00', type: 'ANSWER', text: 'after' },
    ]);
    const reading = readWhole(bytes);
    const second = listEntries(reading)[1]!;
    assert.ok(second.bodyStart - second.start > 65_536);
    assert.deepEqual(second.facts.to, to);
    assert.deepEqual(bodies(reading, bytes), ['short', 'to many', 'after']);
    const packed = packSeatFileReading(bytes)!;
    const adopted = adoptSeatFileReading('team', API, structuredClone(packed.value, { transfer: packed.transfer }));
    assert.deepEqual(adopted.items, reading.items);
  });

  it('a file with more than 65,536 lists of addressees keeps each entry’s own', () => {
    // Written as sac's writer appends, each entry after the last (ASCII: a character is a byte).
    let text = '';
    for (let i = 0; i < 65_540; i++) text += appendedBytes(text.length, { ts: '2026-11-30T17:18:53.482+00:00', type: 'FACT', text: 'x', to: [`a${i}`] });
    const reading = readWhole(bytesOf(text));
    const read = listEntries(reading);
    for (const i of [0, 65_534, 65_535, 65_536, 65_539]) assert.deepEqual(read[i]!.facts.to, [`a${i}`], `entry ${i}`);
  });

  it('entries past 4 GiB into a file keep where they begin, and a file read narrow reads on wide', () => {
    const near = readWhole(writtenFile([{ ts: '2026-11-30T17:18:53.482+00:00', type: 'FACT', text: 'first' }]));
    // A reading come 4 GiB into its file: what lies between is not this test's, only where it ends.
    const far = 2 ** 32 + 7;
    const moved = new SeatFileReading('team', API, far, far, near.entries, null, near.scan);
    const more = bytesOf(appendedBytes(far, { ts: '2026-11-30T17:19:00.000+00:00', type: 'ANSWER', text: 'far on' }));
    const entries = listEntries(readSeatFile(moved, more, far));
    assert.deepEqual(entries.map((entry) => [entry.start, entry.bodyStart, entry.end, entry.facts.type, entry.evidence]), [
      [0, near.entries.headerLength[0], far + 1, 'FACT', 'parsed'],
      [far + 1, far + 1 + '## 2026-11-30T17:19:00.000+00:00 — ANSWER\n'.length + 2, far + more.length, 'ANSWER', 'parsed'],
    ]);
  });
});

describe('the byte scan agrees with reading line by line', () => {
  const pieces = [
    '## 2026-11-30T17:18:53.482+00:00 — FACT',
    '## 2026-11-30T17:18:53.482-00:00 — QUESTION → web-app',
    '## 2026-11-30T17:18:53.482+02:00 — ANSWER → api-service (re: 2026-11-30T17:18:53.482+00:00)',
    '## 2026-11-30T17:18:53.482Z — TÉNY (re: x)',
    '## 2026-11-30T17:18:53.482+00:00 — KÉRDÉS →  a , b,,a ',
    '## 2026-11-30T17:18:53.482+00:00 — FACT\r',
    '## 2026-11-30T17:18:53.482+00:00 — FACT→x',
    '## 2026-11-30T17:18:53.482+00:00 — FACT →   ',
    '## 2026-11-30T17:18:53.482+00:00 — FACT (re: a) trailing',
    '## 2026-11-30T17:18:53.482+00:00 — FACTS',
    '## 2026-11-30T17:18:53.482+00:00 — FACT \u00a0',
    '## 2026-11-30T17:18:53.482+00:00 — FACT → x (re: y',
    '## 2026-11-30T17:18:53 — REQUEST',
    '## 2026-11-30T17:18:53.48212+05:30 — FACT',
    '## 2026-02-30T17:18:53.482+00:00 — FACT',
    '## 2026-11-30T17:18:53.482+24:00 — FACT',
    '## 2026-11-30T17:18:53.482 — FACT',
    '## 2026-11-30T17:18:53.482+00:00 —  FACT',
    '## ',
    '##',
    '## A heading',
    ' ## 2026-11-30T17:18:53.482+00:00 — FACT',
    '\uFEFF## 2026-11-30T17:18:53.482+00:00 — FACT',
    '',
    '',
    '',
    'text',
    ' \t ',
    '\u00a0\u3000',
    'é',
    '🙂 body',
  ];

  it('random lines, complete or cut anywhere, read as the line-by-line reading reads them, pending and torn alike', () => {
    for (let seed = 1; seed <= 2_000; seed++) {
      const random = createSeededRandom(seed);
      const lines = Array.from({ length: Math.floor(random() * 14) }, () => pieces[Math.floor(random() * pieces.length)]!);
      let bytes = bytesOf(lines.join('\n') + (random() < 0.7 ? '\n' : ''));
      if (random() < 0.3) bytes = bytes.subarray(0, Math.floor(random() * (bytes.length + 1)));
      if (random() < 0.05) bytes = new Uint8Array([...bytes, 0xff, 0x0a, 0xc3, 0x0a]);
      const torn = random() < 0.3;
      const reading = readSeatFile(createSeatFileReading('team', API), bytes, 0, { pendingWindowPassed: torn });
      assert.deepEqual(reading.items, readByLines(bytes, torn), `seed ${seed}: ${JSON.stringify(new TextDecoder().decode(bytes))}`);
    }
  });
});

describe('a seat file read on a scan thread', () => {
  /** As a thread hands it over: structured-cloned, its columns' buffer transferred. */
  function handOver(bytes: Uint8Array) {
    const packed = packSeatFileReading(bytes);
    if (packed === null) return null;
    return { offset: packed.offset, value: structuredClone(packed.value, { transfer: packed.transfer }) };
  }

  it('is, once adopted, the reading made where it was read: entries, their facts and evidence, stray text, lists, times as written', () => {
    const file = new Uint8Array([
      ...bytesOf('a line before any header\n\n'),
      ...writtenFile([
        { ts: '2026-11-30T17:18:53.482+00:00', type: 'QUESTION', text: 'first', to: ['web-app', 'api-service'] },
        { ts: '2026-11-30T17:18:53.590+02:00', type: 'ANSWER', text: 'second', re: '2026-11-30T17:18:53.482+00:00', to: ['web-app'] },
        { ts: '2026-11-30T17:18:53', type: 'FACT', text: 'a time not in the writer’s form' },
        { ts: '2026-11-30T17:18:54.000Z', type: 'KÉRDÉS', text: 'the older word', to: ['web-app', 'api-service'] },
      ]),
      ...bytesOf('\n## 2026-11-30T17:18:55.000+00:00 — FACT\n## 2026-11-30T17:18:56.000+00:00 — FACT\nlast, after a header cut short\n'),
    ]);
    const here = readWhole(file);
    const handed = handOver(file);
    assert.ok(handed !== null);
    const adopted = adoptSeatFileReading('team', API, handed.value);
    assert.equal(handed.offset, here.offset);
    assert.deepEqual(adopted.items, here.items);
    assert.deepEqual(listDegradedRanges(adopted), listDegradedRanges(here));
    assert.deepEqual([adopted.offset, adopted.size, adopted.problem, adopted.scan], [here.offset, here.size, here.problem, here.scan]);
    // Lists are shared with every other reading, as a reading made here shares them.
    assert.equal(listEntries(adopted)[0]!.facts.to, listEntries(here)[0]!.facts.to);
    assert.ok(Object.isFrozen(listEntries(adopted)[0]!.facts.to));
    // It reads on from where the thread stopped, as any reading does.
    const more = bytesOf(appendedBytes(file.length, { ts: '2026-11-30T17:19:00.000+00:00', type: 'FACT', text: 'appended later', to: ['web-app'] }));
    const grown = new Uint8Array([...file, ...more]);
    assert.deepEqual(readSeatFile(adopted, grown, 0).items, readSeatFile(here, grown, 0).items);
  });

  it('an empty seat file (the seat joined and never wrote) is handed over with no columns', () => {
    const handed = handOver(new Uint8Array(0));
    assert.ok(handed !== null);
    assert.equal(handed.value.columns, null);
    assert.deepEqual(adoptSeatFileReading('team', API, handed.value).items, []);
  });

  it('a file with something still being written is left to the reader that times the pending window', () => {
    assert.equal(packSeatFileReading(bytesOf('## 2026-11-30T17:18:53.482+00:00 — FACT\nbody\n\n## 2026-11-30T17:18:5')), null);
    assert.equal(packSeatFileReading(bytesOf('## 2026-11-30T17:18:53.482+00:00 — FACT\n')), null);
  });
});
