import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DegradedReason } from './degraded.ts';
import { describeSentUnknown, sayHowMuchSentMayLack, sayWhatSentMayLack, sayWhichLogs } from './sentUnknown.ts';

// A session's Sent is read from the other sessions' logs: a line there that is not an event, or
// a segment not read, names no sender, so any of them may be a message the session sent.

const reason = (code: DegradedReason['code'], lines: number[], files: string[] = ['000000000001.ndjson']): DegradedReason => ({ code, files, lines, why: null });

describe("what a session's Sent may lack", () => {
  it("counts the other logs' damaged, torn and invalid lines and their unread segments, never the session's own log", () => {
    const found = describeSentUnknown('a', [
      { sessionId: 'a', degraded: [reason('damaged-line', [1, 2, 3])] },
      { sessionId: 'b', degraded: [reason('torn-write', [9]), reason('damaged-line', [2])] },
      { sessionId: 'c', degraded: [reason('invalid-line', [4]), reason('unreadable', [], ['000000000002.ndjson', '000000000003.ndjson'])] },
      { sessionId: 'd', degraded: [reason('unreadable', [], [])] },
    ]);
    // Each log beside the key of its first line not read; a log of unread segments only has none.
    assert.deepEqual(found, { lines: 3, segments: 3, logs: ['b', 'c', 'd'], firstLines: ['line-2', 'line-4', null], moreLogs: 0 });
  });

  it('is null when every other log was read whole as events, whatever else is said of them', () => {
    const found = describeSentUnknown('a', [
      { sessionId: 'a', degraded: [reason('torn-write', [5])] },
      { sessionId: 'b', degraded: [reason('session-json-unknown', []), reason('changed-after-read', [])] },
    ]);
    assert.equal(found, null);
  });

  it('names the logs in the order of their ids, whatever order the home lists them in', () => {
    const found = describeSentUnknown('a', ['d', 'b', 'c'].map((sessionId) => ({ sessionId, degraded: [reason('torn-write', [1])] })));
    assert.deepEqual(found?.logs, ['b', 'c', 'd']);
    assert.equal(sayWhichLogs(found!), 'Those logs: b, c, d.');
  });

  it('names twenty logs at most, and counts the rest, each named beside its own first line', () => {
    // Listed from the last id to the first, each with lines of its own: s00 at line 100, s01 at 101, ….
    const logs = Array.from({ length: 25 }, (_, index) => ({ sessionId: `s${String(24 - index).padStart(2, '0')}`, degraded: [reason('damaged-line', [124 - index, 200])] }));
    const found = describeSentUnknown('a', logs);
    assert.equal(found?.lines, 50);
    assert.equal(found?.logs.length, 20);
    assert.deepEqual(found?.logs.slice(0, 2), ['s00', 's01']);
    assert.deepEqual(found?.firstLines, Array.from({ length: 20 }, (_, index) => `line-${100 + index}`));
    assert.equal(found?.moreLogs, 5);
    assert.match(sayWhichLogs(found!), / and 5 more\.$/);
  });

  it('says what is unknown and where, and that any of it may be a message the session sent: never that nothing is missing, never that something is', () => {
    assert.equal(
      sayWhatSentMayLack({ lines: 2, segments: 1, logs: ['b'], firstLines: ['line-1'], moreLogs: 0 }),
      "2 lines not read as events (damaged, torn, or JSON that is not an event) and 1 segment not read in 1 other session's log: whose they are, nothing says, so any of them may be a message this session sent.",
    );
    assert.match(sayWhatSentMayLack({ lines: 1, segments: 0, logs: ['b', 'c'], firstLines: ['line-1', 'line-1'], moreLogs: 3 }), /^1 line not read as an event .* in 5 other sessions' logs:/);
    // One line is one: it, not any of them.
    assert.match(sayWhatSentMayLack({ lines: 1, segments: 0, logs: ['b'], firstLines: ['line-1'], moreLogs: 0 }), /: whose it is, nothing says, so it may be a message this session sent\.$/);
    assert.equal(sayHowMuchSentMayLack({ lines: 2, segments: 1, logs: ['b'], firstLines: ['line-1'], moreLogs: 0 }), '2 lines and 1 segment of 1 other log not read');
    assert.equal(sayHowMuchSentMayLack({ lines: 1, segments: 0, logs: ['b', 'c'], firstLines: ['line-1', 'line-1'], moreLogs: 3 }), '1 line of 5 other logs not read');
  });
});
