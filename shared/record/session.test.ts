import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CWD, OTHER, SESSION, fileOf, nameAt, receivedEntry, sentEntry, startEntry, strayOf } from '../test/recordFixtures.ts';
import { WIDEST_COUNTED_GAP, describeMissing, describeReason } from './degraded.ts';
import { foldSession, type SessionItem } from './session.ts';

const describeItem = (item: SessionItem) =>
  item.type === 'gap' ? `gap ${item.missing.from}-${item.missing.to}` : `${item.type === 'stray' ? 'stray' : item.file.evidence} ${item.file.name}`;

describe('a session as the reader folds it', () => {
  it('entries come in (time, numeric sequence) order, whatever order the files were found in', () => {
    const fold = foldSession(SESSION, [
      fileOf(nameAt(1, 10), sentEntry(1, 'ten')),
      fileOf(nameAt(0, 8), startEntry(0)),
      fileOf(nameAt(1, 9), sentEntry(1, 'nine')),
    ]);
    assert.deepEqual(fold.items.map(describeItem), [`parsed ${nameAt(0, 8)}`, `parsed ${nameAt(1, 9)}`, `parsed ${nameAt(1, 10)}`]);
  });

  it('coverage begins at the start entry; entries before it are outside any run', () => {
    const fold = foldSession(SESSION, [fileOf(nameAt(0, 1), sentEntry(0, 'early')), fileOf(nameAt(1, 2), startEntry(1)), fileOf(nameAt(2, 3), sentEntry(2, 'x'))]);
    assert.equal(fold.coverage, 'from-start');
    assert.deepEqual(fold.items.map((item) => item.type === 'file' && item.run), [null, 0, 0]);
  });

  it('a session with no start entry has coverage unknown, and says so as a degraded reason', () => {
    const fold = foldSession(SESSION, [fileOf(nameAt(1, 2), sentEntry(1, 'x'))]);
    assert.equal(fold.coverage, 'unknown');
    assert.deepEqual(fold.degraded.map((reason) => reason.code), ['no-start']);
  });

  it('an empty session folder is not "nothing happened": its coverage is unknown', () => {
    const fold = foldSession(SESSION, []);
    assert.equal(fold.coverage, 'unknown');
    assert.deepEqual(fold.degraded.map((reason) => reason.code), ['no-start']);
  });

  it('a second start entry begins a second run: the session was resumed', () => {
    const fold = foldSession(SESSION, [
      fileOf(nameAt(0, 1), startEntry(0)),
      fileOf(nameAt(1, 2), sentEntry(1, 'a')),
      fileOf(nameAt(5, 1), startEntry(5, { version: '2.1.315' })),
      fileOf(nameAt(6, 2), sentEntry(6, 'b')),
    ]);
    assert.deepEqual(fold.runs.map((run) => [run.file, run.version]), [[nameAt(0, 1), '2.1.314'], [nameAt(5, 1), '2.1.315']]);
    assert.deepEqual(fold.items.map((item) => item.type === 'file' && item.run), [0, 0, 1, 1]);
    assert.deepEqual(fold.degraded, [], 'a sequence that begins again at a start entry is no gap');
  });

  it('a gap in the sequence within a run is shown in its place as a possible missing entry', () => {
    const fold = foldSession(SESSION, [fileOf(nameAt(0, 1), startEntry(0)), fileOf(nameAt(1, 2), sentEntry(1, 'a')), fileOf(nameAt(3, 5), sentEntry(3, 'b'))]);
    assert.deepEqual(fold.items.map(describeItem), [`parsed ${nameAt(0, 1)}`, `parsed ${nameAt(1, 2)}`, 'gap 3-4', `parsed ${nameAt(3, 5)}`]);
    const gap = fold.degraded.find((reason) => reason.code === 'sequence-gap');
    assert.deepEqual(gap?.missing, [{ from: 3, to: 4, after: nameAt(1, 2), before: nameAt(3, 5) }]);
    assert.equal(fold.counts.missing, 2);
  });

  it('a sequence that jumps by more than the plausible is a jump: a reason and an item in its place, but no count of missing entries', () => {
    const fold = foldSession(SESSION, [
      fileOf(nameAt(0, 1), startEntry(0)),
      fileOf(nameAt(1, 2), sentEntry(1, 'a')),
      fileOf(nameAt(2, 4), sentEntry(2, 'b')),
      fileOf('2026-11-20T090003.000Z-999999999999999.json', sentEntry(3, 'c')),
    ]);
    assert.deepEqual(fold.items.map(describeItem), [`parsed ${nameAt(0, 1)}`, `parsed ${nameAt(1, 2)}`, 'gap 3-3', `parsed ${nameAt(2, 4)}`, 'gap 5-999999999999998', 'parsed 2026-11-20T090003.000Z-999999999999999.json']);
    assert.equal(fold.counts.missing, 1, 'the one missing number counts; the jump does not');
    const reason = fold.degraded.find((each) => each.code === 'sequence-gap')!;
    assert.equal(
      describeReason(reason),
      '1 entry is missing from the sequence, and it jumps once (a jump of 999,999,999,999,995): a write may have failed or a file was removed; how many entries a jump hides, the record cannot say.',
    );
  });

  it('a gap or a jump is told in words that fit it', () => {
    assert.equal(describeMissing({ from: 3, to: 3, after: 'a', before: 'b' }), 'entry 3 missing');
    assert.equal(describeMissing({ from: 3, to: 4, after: 'a', before: 'b' }), 'entries 3–4 missing');
    assert.equal(describeMissing({ from: 3, to: 3 + WIDEST_COUNTED_GAP - 1, after: 'a', before: 'b' }), `entries 3–${(3 + WIDEST_COUNTED_GAP - 1).toLocaleString('en')} missing`);
    assert.equal(describeMissing({ from: 3, to: 3 + WIDEST_COUNTED_GAP, after: 'a', before: 'b' }), `the sequence jumps from 2 to ${(4 + WIDEST_COUNTED_GAP).toLocaleString('en')} (a jump of ${(2 + WIDEST_COUNTED_GAP).toLocaleString('en')})`);
  });

  it('a damaged file keeps its place in the order and counts as a file, not as a gap', () => {
    const fold = foldSession(SESSION, [fileOf(nameAt(0, 1), startEntry(0)), fileOf(nameAt(1, 2), '{"kind":"mess'), fileOf(nameAt(2, 3), sentEntry(2, 'c'))]);
    assert.deepEqual(fold.items.map(describeItem), [`parsed ${nameAt(0, 1)}`, `damaged ${nameAt(1, 2)}`, `parsed ${nameAt(2, 3)}`]);
    assert.deepEqual(fold.degraded, [{ code: 'damaged-file', files: [nameAt(1, 2)] }]);
    assert.equal(fold.counts.damaged, 1);
  });

  it('a file that never parses is shown as unknown evidence with its name and size, not dropped', () => {
    const fold = foldSession(SESSION, [fileOf(nameAt(1, 2), '{"kind":"message","te')]);
    const item = fold.items[0];
    assert.equal(item?.type === 'file' && item.file.evidence, 'damaged');
    assert.equal(item?.type === 'file' && item.file.size, 21);
  });

  it('a pending file is shown in its place and is not a degraded reason', () => {
    const now = Date.now();
    const fold = foldSession(SESSION, [fileOf(nameAt(0, 1), startEntry(0)), fileOf(nameAt(1, 2), '{"kin', { now, changedAt: now })]);
    assert.equal(fold.counts.pending, 1);
    assert.deepEqual(fold.degraded, []);
  });

  it('invalid entries are counted and named as a degraded reason', () => {
    const fold = foldSession(SESSION, [fileOf(nameAt(0, 1), startEntry(0)), fileOf(nameAt(1, 2), { kind: 'message' })]);
    assert.deepEqual(fold.degraded.map((reason) => [reason.code, reason.files]), [['invalid-entry', [nameAt(1, 2)]]]);
  });

  it('an entry whose sessionId is not its folder name is an anomaly', () => {
    const fold = foldSession(SESSION, [fileOf(nameAt(0, 1), startEntry(0)), fileOf(nameAt(1, 2), sentEntry(1, 'x', { sessionId: OTHER }))]);
    assert.deepEqual(fold.degraded.map((reason) => [reason.code, reason.files]), [['session-mismatch', [nameAt(1, 2)]]]);
  });

  it('strays are listed after the entries and never read as evidence', () => {
    const fold = foldSession(SESSION, [strayOf('notes.txt'), fileOf(nameAt(0, 1), startEntry(0))]);
    assert.deepEqual(fold.items.map(describeItem), [`parsed ${nameAt(0, 1)}`, 'stray notes.txt']);
    assert.equal(fold.counts.stray, 1);
    assert.deepEqual(fold.degraded, []);
  });

  it('changed and removed files are named as degraded reasons', () => {
    const changed = { ...fileOf(nameAt(1, 2), sentEntry(1, 'x')), evidence: 'changed' as const };
    const removed = { ...fileOf(nameAt(2, 3), sentEntry(2, 'y')), evidence: 'removed' as const };
    const fold = foldSession(SESSION, [fileOf(nameAt(0, 1), startEntry(0)), changed, removed]);
    assert.deepEqual(fold.degraded.map((reason) => [reason.code, reason.files]), [['changed-after-read', [nameAt(1, 2)]], ['removed-after-read', [nameAt(2, 3)]]]);
    assert.equal(fold.counts.sent, 2, 'what was read before still counts');
  });

  it('a file touched after it was read and put back as it was still names its reason: the record was touched', () => {
    const restored = { ...fileOf(nameAt(1, 2), sentEntry(1, 'x')), touched: 'changed' as const };
    const returned = { ...fileOf(nameAt(2, 3), sentEntry(2, 'y')), touched: 'removed' as const };
    const fold = foldSession(SESSION, [fileOf(nameAt(0, 1), startEntry(0)), restored, returned]);
    assert.deepEqual(fold.degraded.map((reason) => [reason.code, reason.files]), [['changed-after-read', [nameAt(1, 2)]], ['removed-after-read', [nameAt(2, 3)]]]);
    assert.equal(fold.counts.sent, 2);
  });

  it('an unreadable folder is a degraded reason that says why', () => {
    const fold = foldSession(SESSION, [], 'permission denied');
    assert.deepEqual(fold.degraded.find((reason) => reason.code === 'unreadable'), { code: 'unreadable', files: [], folder: 'permission denied' });
  });

  it('counts sent, received, refused and rejected entries', () => {
    const fold = foldSession(SESSION, [
      fileOf(nameAt(0, 1), startEntry(0)),
      fileOf(nameAt(1, 2), sentEntry(1, 'a')),
      fileOf(nameAt(2, 3), sentEntry(2, 'b', { isQueued: false, reason: 'refused' })),
      fileOf(nameAt(3, 4), receivedEntry(3, 'c', { outcome: 'rejected' })),
      fileOf(nameAt(4, 5), receivedEntry(4, 'd', { outcome: 'queued' })),
    ]);
    assert.deepEqual(fold.counts, { sent: 2, received: 2, refused: 1, rejected: 1, damaged: 0, pending: 0, invalid: 0, missing: 0, stray: 0 });
  });

  it('a session belongs to its start entry directory, and lists every directory its entries name', () => {
    const fold = foldSession(SESSION, [
      fileOf(nameAt(0, 1), sentEntry(0, 'a', { cwd: '/before' })),
      fileOf(nameAt(1, 2), startEntry(1)),
      fileOf(nameAt(2, 3), sentEntry(2, 'b', { cwd: '/after' })),
    ]);
    assert.equal(fold.cwd, CWD);
    assert.deepEqual(fold.cwds, ['/before', CWD, '/after']);
  });

  it('without a start entry a session belongs to its latest entry directory', () => {
    const fold = foldSession(SESSION, [fileOf(nameAt(0, 1), sentEntry(0, 'a', { cwd: '/one' })), fileOf(nameAt(1, 2), sentEntry(1, 'b', { cwd: '/two' }))]);
    assert.equal(fold.cwd, '/two');
  });

  it('a chain entry links the session to its parent', () => {
    const chain = { kind: 'chain', sessionId: SESSION, at: '2026-11-20T09:00:01.000Z', parent: OTHER, part: 1, brief: 'write the tests', cwd: CWD };
    const fold = foldSession(SESSION, [fileOf(nameAt(0, 1), startEntry(0)), fileOf(nameAt(1, 2), chain)]);
    assert.deepEqual(fold.chain, { parent: OTHER, part: 1, brief: 'write the tests', file: nameAt(1, 2) });
  });

  it('first and last activity are the times of the first and last files in order', () => {
    const fold = foldSession(SESSION, [fileOf(nameAt(9, 3), sentEntry(9, 'z')), fileOf(nameAt(0, 1), startEntry(0))]);
    assert.equal(fold.firstAt, '2026-11-20T09:00:00.000Z');
    assert.equal(fold.lastAt, '2026-11-20T09:00:09.000Z');
  });

  it('correlation is not claimed: identical texts received from two peers stay two entries that name no sent entry', () => {
    const fold = foldSession(SESSION, [
      fileOf(nameAt(0, 1), startEntry(0)),
      fileOf(nameAt(1, 2), receivedEntry(1, 'same words', { peer: { as: 'uds:/tmp/a.sock' } })),
      fileOf(nameAt(2, 3), receivedEntry(2, 'same words', { peer: { as: 'web-app' } })),
    ]);
    const received = fold.items.filter((item) => item.type === 'file' && item.file.facts?.kind === 'message');
    assert.equal(received.length, 2);
    for (const item of received) assert.deepEqual(Object.keys(item).sort(), ['file', 'run', 'type']);
  });
});
