import assert from 'node:assert/strict';
import { appendFileSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { countEntries, type SeatFileReading } from '../../shared/sac/seatFile.ts';
import { EXAMPLE_STORE } from '../../shared/sac/testing/exampleStore.ts';
import { appendedBytes, writtenFile } from '../../shared/sac/testing/sacWriter.ts';
import { createPendingTails } from '../watch/pendingTails.ts';
import { createSacReader, type SacReader } from './sacReader.ts';
import { createSacRooms } from './sacRooms.ts';
import { storeRules } from './storeOpen.ts';
import type { FirstScanReader } from './sacFirstScan.ts';
import { eventually } from '../test/harness.ts';

// The first scan on two threads: what the scan thread reads is what the main thread would have
// read, each file is read once, and the scan thread keeps every rule of the one safe open.

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const ROOMS = 8;
const SEATS = 15;
const ENTRIES = 40;
/** The secret's bytes read as a seat file would be entries: a reading of them would show. */
const SECRET = '## 2026-11-30T17:18:53.482+00:00 — FACT\nrelay token 0123456789abcdef\n';
/** The last room holds only a seat file that is the secret under another name: last in line, the scan thread's first. */
const LINKED = 'channels/room-zzz/agent-0#ffffffff.md';

/** A store of 120 seat files as sac writes them, some with stray text, a torn write or a tail still being written. */
function writeStore(): string {
  const root = mkdtempSync(join(tmpdir(), 'sac-scan-thread-'));
  made.push(root);
  for (const [path, text] of Object.entries(EXAMPLE_STORE)) if (!path.startsWith('channels/')) writeFileSync(join(root, path), text);
  writeFileSync(join(root, 'relays.json'), SECRET);
  for (let r = 0; r < ROOMS; r++) {
    const room = `room-${String(r).padStart(3, '0')}`;
    mkdirSync(join(root, 'channels', room), { recursive: true });
    for (let s = 0; s < SEATS; s++) {
      const entries = Array.from({ length: ENTRIES }, (_, e) => ({
        ts: new Date(Date.UTC(2026, 10, 30, 17, 0, e, r * 10 + s)).toISOString().replace('Z', '+00:00'),
        type: ['QUESTION', 'ANSWER', 'FACT', 'REQUEST'][e % 4]!,
        text: `entry ${e} of seat ${s} in room ${r}`,
        ...(e % 3 === 0 ? { to: [`agent-${(s + 1) % SEATS}`] } : {}),
        ...(e % 4 === 1 ? { re: '2026-11-30T17:00:00.000+00:00' } : {}),
      }));
      let bytes = Buffer.from(writtenFile(entries));
      const kind = (r * SEATS + s) % 10;
      if (kind === 1) bytes = Buffer.concat([Buffer.from('text before any header\n\n'), bytes]);
      if (kind === 2) bytes = Buffer.concat([bytes, Buffer.from('\n## 2026-11-30T18:00:00.000+00:00 — FACT\n\n## 2026-11-30T18:00:01.000+00:00 — FACT\nafter a write cut short\n')]);
      if (kind === 3) bytes = Buffer.concat([bytes, Buffer.from('\n## 2026-11-30T18:00:02.000+00:00 — FA')]);
      writeFileSync(join(root, 'channels', room, `agent-${s}#${(r * 1000 + s).toString(16).padStart(8, '0')}.md`), bytes);
    }
  }
  mkdirSync(join(root, 'channels', 'room-zzz'));
  linkSync(join(root, 'relays.json'), join(root, ...LINKED.split('/')));
  return root;
}

type Scan = { reader: SacReader; by: Map<string, FirstScanReader[]> };

/**
 * A reader's first scan, each file it reads told with who read it. `slowMain`: the main thread
 * waits a little after each file it reads, as a main thread answering requests would, so that the
 * scan thread, however long it takes to start on a loaded machine, gets its share of the line.
 */
async function scan(root: string, scanThreadFrom: number, slowMain: boolean): Promise<Scan> {
  const by = new Map<string, FirstScanReader[]>();
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const reader = createSacReader({
    root,
    onChange: () => {},
    onStatus: () => {},
    scanThreadFrom,
    onFirstScanRead(relative, who) {
      by.set(relative, [...(by.get(relative) ?? []), who]);
      if (slowMain && who === 'main') Atomics.wait(pause, 0, 0, 30);
    },
  });
  await reader.start();
  return { reader, by };
}

/** Everything a reading says, as one value. */
function describeReading(reading: SeatFileReading) {
  return { offset: reading.offset, size: reading.size, problem: reading.problem, scan: reading.scan, items: reading.items };
}

function describeStore(reader: SacReader) {
  return reader.rooms().flatMap((room) => room.files.map((file) => [`${room.room}/${file.seat}`, describeReading(file)] as const));
}

describe('the sac first scan on two threads', () => {
  it('reads a large store’s seat files on both threads, each file once, to the readings one thread makes', async () => {
    const root = writeStore();
    const one = await scan(root, Number.POSITIVE_INFINITY, false);
    const two = await scan(root, 2, true);
    try {
      assert.deepEqual(describeStore(two.reader), describeStore(one.reader));
      const readers = [...two.by.values()];
      assert.equal(two.by.size, ROOMS * SEATS + 1, 'every seat file of the line is told');
      assert.ok(readers.some((who) => who.includes('thread')), `the scan thread read some: ${JSON.stringify([...two.by].filter(([, who]) => who.join() !== 'main'))}`);
      assert.ok(readers.some((who) => who.includes('main')), 'the main thread read some');
      for (const [relative, who] of two.by) assert.equal(who.filter((one) => one !== 'left by thread').length, 1, `${relative} is read once: ${who.join(', ')}`);
      // A tail still being written is judged where its wait is timed: the scan thread leaves it.
      for (const [relative, who] of two.by) if (two.reader.seatFile(relative.split('/')[1]!, relative.split('/')[2]!.slice(0, -3))!.reading.size > 0 && who.includes('thread')) assert.equal(who.length, 1);
    } finally {
      await Promise.all([one.reader.close(), two.reader.close()]);
    }
  });

  it('a seat file hard-linked to relays.json is never opened by the scan thread either, and its seat says a file was withheld', async () => {
    const root = writeStore();
    const { reader, by } = await scan(root, 2, true);
    try {
      assert.deepEqual(by.get(LINKED), ['left by thread', 'main']);
      const reading = reader.seatFile('room-zzz', 'agent-0#ffffffff')!.reading;
      assert.equal(reading.problem?.code, 'withheld');
      assert.equal(countEntries(reading), 0);
      assert.equal(reading.size, 0, 'nothing of the secret was read');
    } finally {
      await reader.close();
    }
  });

  it('a seat file the scan thread read is read on from where it stopped, and is changed after reading once its read bytes are rewritten', async () => {
    const root = writeStore();
    const { reader, by } = await scan(root, 2, true);
    try {
      const byThread = [...by].filter(([relative, who]) => who.join() === 'thread' && relative !== LINKED).map(([relative]) => relative);
      assert.ok(byThread.length >= 2, 'the scan thread read at least two files');
      const [grown, rewritten] = byThread.map((relative) => ({ relative, room: relative.split('/')[1]!, seat: relative.split('/')[2]!.slice(0, -3) }));
      const fileOf = (what: typeof grown) => reader.seatFile(what!.room, what!.seat)!.reading;
      const before = countEntries(fileOf(grown));
      const path = join(root, ...grown!.relative.split('/'));
      appendFileSync(path, appendedBytes(readFileSync(path).length, { ts: '2026-11-30T19:00:00.000+00:00', type: 'FACT', text: 'appended after the scan' }));
      await eventually(() => (countEntries(fileOf(grown)) === before + 1 ? true : undefined), 'the append read');
      assert.equal(fileOf(grown).problem, null);

      // The same length, other bytes just before where the thread stopped, then an append: the thread's fingerprint no longer holds.
      const other = join(root, ...rewritten!.relative.split('/'));
      const bytes = readFileSync(other);
      bytes[bytes.length - 3] = bytes[bytes.length - 3] === 0x78 ? 0x79 : 0x78;
      writeFileSync(other, bytes);
      appendFileSync(other, appendedBytes(bytes.length, { ts: '2026-11-30T19:00:01.000+00:00', type: 'FACT', text: 'appended after a rewrite' }));
      await eventually(() => (fileOf(rewritten)?.problem?.code === 'changed-after-read' ? true : undefined), 'the rewrite seen');
    } finally {
      await reader.close();
    }
  });

  it('a listed line is handed to the scan thread at once: it reads the whole line while the main thread is busy elsewhere, and the main thread reads only what it left', async () => {
    const root = writeStore();
    const by = new Map<string, FirstScanReader[]>();
    const rooms = createSacRooms({
      root,
      rules: storeRules(root),
      pending: createPendingTails(() => {}),
      watch: () => {},
      unwatchUnder: () => {},
      onLayout: () => {},
      scanThreadFrom: 2,
      onError: (message) => assert.fail(message),
      onFirstScanRead: (relative, who) => by.set(relative, [...(by.get(relative) ?? []), who]),
    });
    const line: Parameters<typeof rooms.readLine>[0] = [];
    for (const step of rooms.listChannels(true, line)) assert.equal(step, undefined);
    try {
      const scan = rooms.handOverLine(line);
      assert.ok(scan !== null, 'a line this long is handed to a thread');
      // The main thread reads nothing meanwhile (as it reads the store's own files): the thread takes the whole line.
      await eventually(() => (scan.ended ? true : undefined), 'the scan thread done with the line');
      for (const step of rooms.readLine(line)) if (step instanceof Promise) await step;
      assert.equal(by.size, ROOMS * SEATS + 1, 'every seat file of the line is told');
      for (const [relative, who] of by) assert.ok(who[0] === 'thread' || (who[0] === 'left by thread' && who.join() === 'left by thread,main'), `${relative}: ${who.join(', ')}`);
      assert.deepEqual(by.get(LINKED), ['left by thread', 'main'], 'the secret under another name is left, and withheld here');
    } finally {
      rooms.stopThread();
    }
  });
});
