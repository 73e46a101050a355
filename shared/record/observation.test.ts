import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SESSION } from '../test/recordFixtures.ts';
import type { EntryFacts } from './entry.ts';
import { PENDING_WINDOW_MS, nextRetryDelay } from '../evidence.ts';
import { parseEntryName } from './entryName.ts';
import type { KnownFile } from './knownFile.ts';
import { UNREAD_ENTRY, concludeObservation } from './observation.ts';

const NOW = 1_800_000_000_000;
const facts: EntryFacts = { kind: 'start', sessionId: SESSION, at: '2026-11-20T09:00:00.000Z', cwd: '/x', host: 'h', version: 'v', inbound: 'accept' };
const FILE = { name: '2026-11-20T090000.000Z-1.json', entryName: parseEntryName('2026-11-20T090000.000Z-1.json'), mtimeMs: NOW };
const parsed: KnownFile = { ...FILE, evidence: 'parsed', why: null, size: 100, facts, fingerprint: 7 } as KnownFile;
const unparsed = (changedAt: number) => ({ type: 'unparsed' as const, why: 'not JSON', size: 10, changedAt });

describe('what a reader concludes from each look at a file', () => {
  it('a file that does not parse yet is pending while the writer may still be writing', () => {
    assert.equal(concludeObservation(null, FILE, unparsed(NOW - 100), NOW)?.evidence, 'pending');
  });

  it('a file still unparsed 10 s after it last changed is damaged: unknown evidence', () => {
    assert.equal(concludeObservation(null, FILE, unparsed(NOW - PENDING_WINDOW_MS), NOW)?.evidence, 'damaged');
  });

  it('a file already older than the window when first seen is damaged at once', () => {
    const first = concludeObservation(null, FILE, unparsed(NOW - 3_600_000), NOW);
    assert.equal(first?.evidence, 'damaged');
    assert.equal(first?.why, 'not JSON');
  });

  it('a pending file that completes becomes a parsed entry', () => {
    const pending = concludeObservation(null, FILE, unparsed(NOW - 10), NOW);
    const done = concludeObservation(pending, FILE, { type: 'entry', facts, fingerprint: 7, size: 100, changedAt: NOW }, NOW);
    assert.equal(done?.evidence, 'parsed');
    assert.equal(done?.facts, facts);
  });

  it('a damaged file that later parses becomes parsed', () => {
    const damaged = concludeObservation(null, FILE, unparsed(NOW - 60_000), NOW);
    assert.equal(concludeObservation(damaged, FILE, { type: 'entry', facts, fingerprint: 7, size: 100, changedAt: NOW }, NOW)?.evidence, 'parsed');
  });

  it('reading a parsed file again with the same bytes changes nothing', () => {
    assert.deepEqual(concludeObservation(parsed, FILE, { type: 'entry', facts, fingerprint: 7, size: 101, changedAt: NOW }, NOW), { ...parsed, size: 101 });
  });

  it('a parsed file whose bytes change was touched by something other than the writer: changed, first facts kept', () => {
    const other: EntryFacts = { ...facts, cwd: '/elsewhere' };
    const changed = concludeObservation(parsed, FILE, { type: 'entry', facts: other, fingerprint: 8, size: 100, changedAt: NOW }, NOW);
    assert.equal(changed?.evidence, 'changed');
    assert.equal(changed?.facts, facts);
  });

  it('a parsed file that no longer parses is changed, not pending', () => {
    assert.equal(concludeObservation(parsed, FILE, unparsed(NOW), NOW)?.evidence, 'changed');
  });

  it('a parsed file rewritten as invalid JSON is changed', () => {
    assert.equal(concludeObservation(parsed, FILE, { type: 'invalid', why: 'kind: expected a string', fingerprint: 9, size: 5 }, NOW)?.evidence, 'changed');
  });

  it('a file that disappears after it parsed is removed, and what it said is kept', () => {
    const removed = concludeObservation(parsed, FILE, { type: 'gone' }, NOW);
    assert.equal(removed?.evidence, 'removed');
    assert.equal(removed?.facts, facts);
    assert.equal(removed?.why, 'removed after it was read');
  });

  it('a file that disappears before it ever parsed is removed as well, saying so', () => {
    const pending = concludeObservation(null, FILE, unparsed(NOW), NOW);
    assert.equal(concludeObservation(pending, FILE, { type: 'gone' }, NOW)?.why, 'removed before it ever parsed');
  });

  it('a removed file that comes back with the same bytes is parsed again', () => {
    const removed = concludeObservation(parsed, FILE, { type: 'gone' }, NOW);
    assert.equal(concludeObservation(removed, FILE, { type: 'entry', facts, fingerprint: 7, size: 100, changedAt: NOW }, NOW)?.evidence, 'parsed');
  });

  it('a stray that goes leaves nothing to show', () => {
    const notes = { name: 'notes.txt', entryName: null, mtimeMs: NOW };
    const stray = concludeObservation(null, notes, { type: 'stray', why: 'not an entry file name', size: 3 }, NOW);
    assert.equal(stray?.evidence, 'stray');
    assert.equal(concludeObservation(stray, notes, { type: 'gone' }, NOW), null);
  });

  it('a file the reader may not read is unreadable, and keeps what it said before', () => {
    const unreadable = concludeObservation(parsed, FILE, { type: 'unreadable', why: 'permission denied' }, NOW);
    assert.equal(unreadable?.evidence, 'unreadable');
    assert.equal(unreadable?.facts, facts);
  });

  it('a file whose mtime is in the future is pending for the window from when the reader first saw it, then damaged', () => {
    // The reader's own clock times the window: `readerNow` is what it read at each look.
    const first = concludeObservation(null, FILE, unparsed(NOW + 3_600_000), NOW, 500);
    assert.equal(first?.evidence, 'pending');
    const during = concludeObservation(first, FILE, unparsed(NOW + 3_600_000), NOW + PENDING_WINDOW_MS - 1, 500 + PENDING_WINDOW_MS - 1);
    assert.equal(during?.evidence, 'pending');
    const after = concludeObservation(during, FILE, unparsed(NOW + 3_600_000), NOW + PENDING_WINDOW_MS, 500 + PENDING_WINDOW_MS);
    assert.equal(after?.evidence, 'damaged');
  });

  it('a reader given a shorter window concludes damaged at its end, and at once of a file older than it', () => {
    const window = 3_000;
    const first = concludeObservation(null, FILE, unparsed(NOW + 3_600_000), NOW, 500, window);
    const during = concludeObservation(first, FILE, unparsed(NOW + 3_600_000), NOW + window - 1, 500 + window - 1, window);
    assert.equal(during?.evidence, 'pending');
    assert.equal(concludeObservation(during, FILE, unparsed(NOW + 3_600_000), NOW + window, 500 + window, window)?.evidence, 'damaged');
    assert.equal(concludeObservation(null, FILE, unparsed(NOW - window), NOW, 500, window)?.evidence, 'damaged');
  });

  it('the pending window follows the reader\'s clock, not the wall clock: a wall clock set back does not keep a file pending', () => {
    const first = concludeObservation(null, FILE, unparsed(NOW - 100), NOW, 0);
    const later = concludeObservation(first, FILE, unparsed(NOW - 100), NOW - 3_600_000, PENDING_WINDOW_MS);
    assert.equal(later?.evidence, 'damaged');
  });

  it('a file that keeps changing without parsing is still damaged once the window from the first look has passed', () => {
    let conclusion = concludeObservation(null, FILE, unparsed(NOW), NOW, 0);
    for (let t = 1_000; t < PENDING_WINDOW_MS; t += 1_000) conclusion = concludeObservation(conclusion, FILE, unparsed(NOW + t), NOW + t, t);
    assert.equal(conclusion?.evidence, 'pending');
    assert.equal(concludeObservation(conclusion, FILE, unparsed(NOW + PENDING_WINDOW_MS), NOW + PENDING_WINDOW_MS, PENDING_WINDOW_MS)?.evidence, 'damaged');
  });

  it('a damaged file that changes and still does not parse stays damaged', () => {
    const damaged = concludeObservation(null, FILE, unparsed(NOW - 60_000), NOW, 0);
    assert.equal(concludeObservation(damaged, FILE, unparsed(NOW), NOW, 1)?.evidence, 'damaged');
  });

  for (const [what, why] of [
    ['a symbolic link', 'a symbolic link, not followed'],
    ['a named pipe', 'a named pipe'],
    ['a folder', 'a folder'],
  ] as const) {
    it(`a parsed file whose name now holds ${what} is changed after it was read, and what it said is kept`, () => {
      const now = concludeObservation(parsed, FILE, { type: 'stray', why, size: 4096 }, NOW);
      assert.equal(now?.evidence, 'changed');
      assert.equal(now?.facts, facts);
      assert.equal(now?.why, `changed after it was read: now ${why}`);
      assert.equal(now?.size, 4096);
    });
  }

  it('a removed file whose name then holds a link is changed: what it said is still kept', () => {
    const removed = concludeObservation(parsed, FILE, { type: 'gone' }, NOW);
    const link = concludeObservation(removed, FILE, { type: 'stray', why: 'a symbolic link, not followed', size: 12 }, NOW);
    assert.equal(link?.evidence, 'changed');
    assert.equal(link?.facts, facts);
  });

  it('an invalid file whose name now holds a folder is changed, not a stray', () => {
    const invalid = concludeObservation(null, FILE, { type: 'invalid', why: 'kind: expected a string', fingerprint: 9, size: 5 }, NOW);
    assert.equal(concludeObservation(invalid, FILE, { type: 'stray', why: 'a folder', size: 4096 }, NOW)?.evidence, 'changed');
  });

  for (const [what, why] of [
    ['a symbolic link', 'a symbolic link, not followed'],
    ['a named pipe', 'a named pipe'],
    ["another store's secret", 'the same file (device and inode) as a secret of a store read here, under another name: withheld, never read'],
  ] as const) {
    it(`an entry's name that holds ${what}, never read, is unreadable in that entry's place, saying why: not a stray, whose name is no entry's`, () => {
      const link = concludeObservation(null, FILE, { type: 'stray', why, size: 12 }, NOW);
      assert.equal(link?.evidence, 'unreadable');
      assert.equal(link?.why, `${UNREAD_ENTRY}${why}`);
      assert.equal(link?.facts, null);
      assert.equal(link?.size, 12);
    });
  }

  it("a link under an entry's name that goes leaves nothing to show: the name holds nothing now, and nothing of it was read", () => {
    const link = concludeObservation(null, FILE, { type: 'stray', why: 'a symbolic link, not followed', size: 12 }, NOW);
    assert.equal(concludeObservation(link, FILE, { type: 'gone' }, NOW), null);
  });

  it('a name never parsed that then holds a link is unreadable in its place, as one that held it from the first', () => {
    const pending = concludeObservation(null, FILE, unparsed(NOW), NOW);
    assert.equal(concludeObservation(pending, FILE, { type: 'stray', why: 'a symbolic link, not followed', size: 12 }, NOW)?.evidence, 'unreadable');
  });

  it("a name that is not an entry's is a stray, whatever it holds", () => {
    const notes = { name: 'notes.json', entryName: null, mtimeMs: NOW };
    assert.equal(concludeObservation(null, notes, { type: 'stray', why: 'a symbolic link, not followed', size: 12 }, NOW)?.evidence, 'stray');
    assert.equal(concludeObservation(null, notes, { type: 'stray', why: 'not an entry file name', size: 12 }, NOW)?.evidence, 'stray');
  });

  it('a changed file that comes back with the bytes first read is parsed, and keeps the episode', () => {
    const cut = concludeObservation(parsed, FILE, unparsed(NOW), NOW);
    const back = concludeObservation(cut, FILE, { type: 'entry', facts, fingerprint: 7, size: 100, changedAt: NOW }, NOW);
    assert.equal(back?.evidence, 'parsed');
    assert.equal(back?.touched, 'changed');
    assert.equal(back?.why, null);
  });

  it('a removed file that comes back with the bytes first read is parsed, and keeps the episode', () => {
    const removed = concludeObservation(parsed, FILE, { type: 'gone' }, NOW);
    const back = concludeObservation(removed, FILE, { type: 'entry', facts, fingerprint: 7, size: 100, changedAt: NOW }, NOW);
    assert.equal(back?.touched, 'removed');
    assert.equal(concludeObservation(back, FILE, { type: 'entry', facts, fingerprint: 7, size: 100, changedAt: NOW }, NOW)?.touched, 'removed', 'read again, it keeps it');
  });

  it('an episode outlives a spell of being unreadable', () => {
    const removed = concludeObservation(parsed, FILE, { type: 'gone' }, NOW);
    const locked = concludeObservation(removed, FILE, { type: 'unreadable', why: 'permission denied', size: 100 }, NOW);
    assert.equal(concludeObservation(locked, FILE, { type: 'entry', facts, fingerprint: 7, size: 100, changedAt: NOW }, NOW)?.touched, 'removed');
  });

  it('a file too large to read says the size it has now', () => {
    assert.equal(concludeObservation(parsed, FILE, { type: 'unreadable', why: 'too large to read', size: 70_000_000 }, NOW)?.size, 70_000_000);
  });

  it('retries back off and never wait past the moment the file becomes damaged', () => {
    const changedAt = NOW;
    assert.equal(nextRetryDelay(0, NOW, changedAt), 50);
    assert.ok(nextRetryDelay(3, NOW, changedAt) > nextRetryDelay(1, NOW, changedAt));
    assert.ok(nextRetryDelay(20, NOW + PENDING_WINDOW_MS - 100, changedAt) <= 101);
  });
});
