import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEntryName } from '../../shared/record/entryName.ts';
import type { EntryFacts } from '../../shared/record/entryFacts.ts';
import { concludeObservation, type Observation } from '../../shared/record/observation.ts';
import { SESSION, nameAt } from '../../shared/test/recordFixtures.ts';
import { createLooksPacker, openLooks, type ScannedFile } from './scanLooks.ts';

// What a scan thread hands over is made again, on the thread that concludes it, exactly as the
// scan thread saw it: every kind of look, every kind of entry, every value a field can hold.

const at = '2026-11-20T09:00:00.000Z';
const message = (extra: Partial<Extract<EntryFacts, { kind: 'message' }>>): EntryFacts => ({
  kind: 'message',
  sessionId: SESSION,
  at,
  cwd: '/home/dev/projects/web-app',
  side: 'sent',
  peerAs: 'api-service',
  peerSessionId: null,
  isQueued: true,
  outcome: null,
  withheld: false,
  ...extra,
});

const FACTS: EntryFacts[] = [
  { kind: 'start', sessionId: SESSION, at, cwd: '/home/dev/projects/web-app', host: 'claude-code', version: '2.1.314', inbound: 'accept' },
  message({}),
  message({ isQueued: false, peerAs: null }),
  message({ side: 'received', isQueued: null, outcome: 'rejected', peerSessionId: 'c3c3', withheld: true }),
  ...(['queued', 'consumed', 'unknown'] as const).map((outcome) => message({ side: 'received', isQueued: null, outcome })),
  { kind: 'chain', sessionId: 'another session', at, cwd: '', parent: 'p1', part: 2, brief: 'review' },
  { kind: 'chain', sessionId: SESSION, at, cwd: '/x', parent: 'p1', part: -1.5, brief: '' },
  { kind: 'chain', sessionId: SESSION, at, cwd: '/x', parent: 'p1', part: '12345678901234567890', brief: 'b' },
  { kind: 'unknown', kindName: 'handoff', sessionId: null, at: null, cwd: null },
  { kind: 'unknown', kindName: 'a name with \u0000, é and 🧪', sessionId: SESSION, at: 'not a time', cwd: '/x' },
];

const SEEN: Observation[] = [
  ...FACTS.map((facts, i): Observation => ({ type: 'entry', facts, fingerprint: 2 ** 48 - 1 - i, size: 100 + i, changedAt: 1_795_000_000_000.5 })),
  { type: 'unparsed', why: 'not JSON: Unexpected end of JSON input', size: 12, changedAt: 1_795_000_000_000.5 },
  { type: 'invalid', why: 'kind: expected a string', fingerprint: 0, size: 3 },
  { type: 'stray', why: 'a symbolic link, not followed', size: 0 },
  { type: 'unreadable', why: 'permission denied', size: 7 },
  { type: 'unreadable', why: 'permission denied' },
  { type: 'gone' },
];

/** An entry the scan thread left to the thread that concludes, which reads it with the schemas. */
const LEFT: ScannedFile = { name: nameAt(59, 99), entryName: parseEntryName(nameAt(59, 99)), seen: null, mtimeMs: null };

describe('a folder handed over by a scan thread', () => {
  it('every kind of look at every kind of file is made again as it was seen, strings and numbers alike', () => {
    const files: ScannedFile[] = SEEN.map((seen, i) => {
      const name = i === 3 ? 'notes.txt' : i === 4 ? '2026-11-20T090000.000Z-123456789012345678901234567890.json' : nameAt(i % 60, i + 1);
      const mtimeMs = seen.type === 'gone' || (seen.type === 'unreadable' && seen.size === undefined) ? null : 'changedAt' in seen ? seen.changedAt : 1_795_000_000_123;
      return { name, entryName: parseEntryName(name), seen, mtimeMs };
    });
    files.push(LEFT);
    const packer = createLooksPacker(2);
    for (const file of files) packer.add(file);
    // As a thread hands it over: the numbers moved, the strings copied.
    const packed = packer.take();
    const received = openLooks(structuredClone(packed, { transfer: [packed.numbers.buffer as ArrayBuffer, packed.ends.buffer as ArrayBuffer] }));
    assert.equal(received.count, files.length);
    assert.deepEqual(
      files.map((_, i) => received.look(i)),
      files,
    );
  });

  it('a first look at an entry, concluded straight from the numbers handed over, is the file the reader concludes of the look made again; a look that found anything else is left to the look', () => {
    const files: ScannedFile[] = SEEN.map((seen, i) => {
      const name = nameAt(i % 60, i + 1);
      return { name, entryName: parseEntryName(name), seen, mtimeMs: seen.type === 'gone' ? null : 1_795_000_000_123 };
    });
    files.push(LEFT);
    const packer = createLooksPacker(2);
    for (const file of files) packer.add(file);
    const looks = openLooks(packer.take());
    files.forEach((file, i) => {
      assert.equal(looks.name(i), file.name);
      const first = looks.firstEntry(i);
      if (file.seen?.type !== 'entry') {
        assert.equal(first, null, `a look that found ${file.seen?.type ?? 'an entry left to the schemas'} is concluded from the look`);
        return;
      }
      const concluded = concludeObservation(null, { name: file.name, entryName: file.entryName, mtimeMs: file.mtimeMs! }, looks.look(i).seen!, Date.now());
      assert.deepEqual(first, concluded);
      // The same fields in the same order: the index keeps a million of them.
      assert.deepEqual(Object.keys(first!), Object.keys(concluded!));
    });
  });

  it('the strings a folder repeats go over once each, and an entry\'s time is the one its name gives', () => {
    const packer = createLooksPacker(1);
    for (let seq = 1; seq <= 100; seq++) {
      const name = nameAt(seq % 60, seq, seq);
      packer.add({ name, entryName: parseEntryName(name), seen: { type: 'entry', facts: message({ at: parseEntryName(name)!.at }), fingerprint: seq, size: 10, changedAt: 1 }, mtimeMs: 1 });
    }
    const packed = packer.take();
    // 100 names and the 100 times they give; one session, one cwd, one peer.
    assert.equal(packed.ends.length, 100 + 100 + 3);
    const looks = openLooks(packed);
    const first = looks.look(0);
    const second = looks.look(1);
    assert.ok(first.seen?.type === 'entry' && second.seen?.type === 'entry');
    assert.ok(Object.is(first.seen.facts.cwd, second.seen.facts.cwd));
    assert.ok(Object.is(first.seen.facts.at, first.entryName!.at));
  });

  it('the packer starts afresh after each folder it hands over', () => {
    const packer = createLooksPacker(1);
    packer.add({ name: 'notes.txt', entryName: null, seen: { type: 'stray', why: 'not an entry file name', size: 1 }, mtimeMs: 1 });
    assert.equal(openLooks(packer.take()).count, 1);
    const empty = packer.take();
    assert.equal(openLooks(empty).count, 0);
    assert.equal(empty.text, '');
  });
});
