import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SourceRef } from './wire/common.ts';
import type { SessionSummary } from './wire/record.ts';
import type { SessionsResponse } from './wire/conversations.ts';
import { groupProjects } from './projects.ts';
import { applySessionChanges } from './sessionList.ts';

const RECORD = { kind: 'record', id: 'record-0123abcd' } as const;
const SPEX = { kind: 'spex', id: 'spex-4567ef01' } as const;

function summary(sessionId: string, cwd: string | null, lastAt: string | null, degraded = false, source: SourceRef = RECORD): SessionSummary {
  return {
    // A record session's shape under another source's ref: the list's rules do not look past the ref.
    source: source as SessionSummary['source'],
    id: sessionId,
    sessionId,
    statedSession: sessionId,
    cwd,
    cwds: cwd === null ? [] : [cwd],
    hasStart: !degraded,
    coverage: degraded ? 'unknown' : 'from-start',
    runCount: degraded ? 0 : 1,
    firstAt: lastAt,
    lastAt,
    counts: { sent: 1, received: 0, refused: 0, rejected: 0, damaged: 0, pending: 0, invalid: 0, missing: 0, stray: 0 },
    degraded: degraded ? [{ code: 'no-start', files: [], filesTotal: 0 }] : [],
    chain: null,
  };
}

function listOf(sessions: SessionSummary[]): SessionsResponse {
  return {
    schema: 'rec.sessions/4',
    version: 'abcdef01.1',
    sources: [{ ...RECORD, root: '/record', state: 'present', why: null, indexing: { state: 'ready', files: 3 }, strays: [] }],
    degradedSessions: sessions.filter((s) => s.degraded.length > 0).length,
    projects: groupProjects(sessions),
  };
}

describe('a list of sessions kept current from notices', () => {
  const a = summary('a', '/one', '2026-11-20T09:00:01.000Z');
  const b = summary('b', '/two', '2026-11-20T09:00:02.000Z', true);
  const c = summary('c', '/one', '2026-11-20T09:00:03.000Z');

  test('a changed session is listed as the server would list it after the change', () => {
    const moved = summary('a', '/two', '2026-11-20T09:00:09.000Z');
    const patched = applySessionChanges(listOf([a, b, c]), [moved]);
    assert.deepStrictEqual(patched, listOf([moved, b, c]));
    assert.deepStrictEqual(patched.projects.map((p) => [p.cwd, p.sessions.map((s) => s.id)]), [['/two', ['a', 'b']], ['/one', ['c']]]);
  });

  test('a session not listed yet is added, and the degraded count follows its reasons', () => {
    const d = summary('d', null, null, true);
    const patched = applySessionChanges(listOf([a, b]), [d]);
    assert.equal(patched.degradedSessions, 2);
    assert.deepStrictEqual(patched, listOf([a, b, d]));
    const mended = applySessionChanges(patched, [summary('b', '/two', '2026-11-20T09:00:02.000Z')]);
    assert.equal(mended.degradedSessions, 1);
  });

  test('the same session id in two sources is two sessions in the list: a change to one never replaces the other', () => {
    const seenElsewhere = summary('a', '/one', '2026-11-20T09:00:05.000Z', true, SPEX);
    const patched = applySessionChanges(listOf([a, b, c]), [seenElsewhere]);
    assert.deepStrictEqual(patched, listOf([a, b, c, seenElsewhere]));
    assert.deepStrictEqual(
      patched.projects[0]!.sessions.map((s) => [s.source.id, s.id]),
      [['spex-4567ef01', 'a'], ['record-0123abcd', 'c'], ['record-0123abcd', 'a']],
    );
  });

  test('a project none of whose sessions changed is the same project object in the new list; the one changed is new', () => {
    const list = listOf([a, b, c]);
    const patched = applySessionChanges(list, [summary('b', '/two', '2026-11-20T09:00:04.000Z')]);
    assert.equal(patched.projects.find((p) => p.cwd === '/one'), list.projects.find((p) => p.cwd === '/one'));
    assert.notEqual(patched.projects.find((p) => p.cwd === '/two'), list.projects.find((p) => p.cwd === '/two'));
  });

  test('no changes leave the list as it was', () => {
    const list = listOf([a, b, c]);
    assert.equal(applySessionChanges(list, []), list);
  });
});

describe('a list kept current from many changes', () => {
  test('after any run of changes and removals it is the list grouped afresh from the sessions it then holds', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const at = (n: number) => new Date(Date.UTC(2026, 10, 20, 9) + n * 1000).toISOString();
    const held = new Map<string, SessionSummary>();
    for (let i = 0; i < 60; i++) held.set(`s${i}`, summary(`s${i}`, random() < 0.1 ? null : `/p${i % 7}`, random() < 0.1 ? null : at(Math.floor(random() * 50)), random() < 0.3));
    let list = listOf([...held.values()]);
    for (let step = 0; step < 300; step++) {
      const changed: SessionSummary[] = [];
      const removed: { source: SourceRef; id: string }[] = [];
      for (let n = Math.floor(random() * 4); n >= 0; n--) {
        const id = `s${Math.floor(random() * 80)}`;
        if (random() < 0.15) {
          removed.push({ source: RECORD, id });
          held.delete(id);
        } else {
          const one = summary(id, random() < 0.1 ? null : `/p${Math.floor(random() * 9)}`, at(Math.floor(random() * 400)), random() < 0.3);
          changed.push(one);
          held.set(id, one);
        }
      }
      // A session both changed and removed in one call is removed.
      for (const gone of removed) {
        changed.splice(0, changed.length, ...changed.filter((one) => one.id !== gone.id));
        held.delete(gone.id);
      }
      list = applySessionChanges(list, changed, removed);
      assert.deepStrictEqual(list, listOf([...held.values()]), `step ${step}`);
    }
  });
});
