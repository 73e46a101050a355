import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupBySession, joinSessions, listSessionsByProject, type HeldConversation } from './joinSessions.ts';

const RECORD = { kind: 'record', id: 'record-0123abcd' } as const;
const SPEX = { kind: 'spex', id: 'spex-0123abcd' } as const;
const SAC = { kind: 'sac', id: 'sac-0123abcd' } as const;
const A = '9c0ffee0-1111-4111-8111-00000000000a';
const B = '9c0ffee0-1111-4111-8111-00000000000b';

function held(source: HeldConversation['source'], id: string, session: string | null, fields: Partial<HeldConversation> = {}): HeldConversation {
  return { source, id, session, cwd: '/home/dev/projects/checkout', lastAt: '2026-12-01T15:16:42.000Z', degraded: false, sent: 1, received: 1, ...fields };
}

describe('one session across the stores', () => {
  it('the same full id in the record, spex and a set-agent-comm seat is one session with a conversation per store', () => {
    const sessions = joinSessions([held(SAC, 'checkout#9c0ffee0', A), held(SPEX, A, A), held(RECORD, A, A)]);
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0]!.session, A);
    assert.deepEqual(sessions[0]!.conversations.map((one) => [one.source.kind, one.id]), [['record', A], ['spex', A], ['sac', 'checkout#9c0ffee0']]);
  });

  it('two sessions whose ids share their first 8 characters stay two, each with only its own conversations', () => {
    const sessions = joinSessions([held(RECORD, A, A), held(RECORD, B, B), held(SAC, 'checkout#9c0ffee0', A), held(SAC, 'checkout#9c0ffee0-111', B), held(SPEX, A, A), held(SPEX, B, B)]);
    assert.deepEqual(sessions.map((one) => one.session).sort(), [A, B]);
    for (const session of sessions) for (const conversation of session.conversations) assert.equal(conversation.session, session.session);
  });

  it('nothing joins on a prefix, a case, spaces or a seat name: only the whole id as written', () => {
    const sessions = joinSessions([held(RECORD, A, A), held(SPEX, '9c0ffee0', '9c0ffee0'), held(SPEX, A.toUpperCase(), A.toUpperCase()), held(SAC, `checkout#${A}`, ` ${A}`)]);
    assert.equal(sessions.length, 4);
    assert.ok(sessions.every((session) => session.conversations.length === 1));
  });

  it('a conversation whose store names no session (a seat the registry gives none, an empty id) is no session', () => {
    assert.deepEqual(joinSessions([held(SAC, 'checkout#9c0ffee0', null), held(SPEX, '', '')]), []);
  });

  it('a session holds every seat its registry gives it, and its newest time across the stores', () => {
    const [session] = joinSessions([held(SAC, 'api#1', A, { lastAt: '2026-12-01T10:00:00.000Z' }), held(SAC, 'web#1', A, { lastAt: '2026-12-01T12:00:00.000Z' }), held(RECORD, A, A, { lastAt: null })]);
    assert.deepEqual(session!.conversations.map((one) => one.id), [A, 'api#1', 'web#1']);
    assert.equal(session!.lastAt, '2026-12-01T12:00:00.000Z');
  });

  it('a session whose stores name different working directories is listed under each, saying where else', () => {
    const projects = listSessionsByProject(joinSessions([held(RECORD, A, A, { cwd: '/a' }), held(SPEX, A, A, { cwd: '/b' }), held(SAC, 'x#1', B, { cwd: '/a' })]));
    const under = (cwd: string) => projects.find((project) => project.cwd === cwd)!.sessions;
    assert.deepEqual(under('/a').map((one) => [one.session, one.elsewhere]), [[A, ['/b']], [B, []]].sort());
    assert.deepEqual(under('/b').map((one) => [one.session, one.elsewhere]), [[A, ['/a']]]);
  });

  it('the join the sidebar makes of summaries is the same: by the full id stated, in store order, an empty or absent id joining nothing', () => {
    const summaries = [
      { source: SAC, id: 'checkout#9c0ffee0', statedSession: A },
      { source: RECORD, id: B, statedSession: B },
      { source: SPEX, id: A, statedSession: A },
      { source: RECORD, id: A, statedSession: A },
      { source: SAC, id: 'x#1', statedSession: null },
      { source: SPEX, id: '', statedSession: '' },
    ];
    const groups = groupBySession(summaries, (one) => one.statedSession);
    assert.deepEqual([...groups.keys()].sort(), [A, B]);
    assert.deepEqual(groups.get(A)!.map((one) => [one.source.kind, one.id]), [['record', A], ['spex', A], ['sac', 'checkout#9c0ffee0']]);
  });

  it('a session of one directory is listed once, and a session named by no directory is listed apart, last', () => {
    const projects = listSessionsByProject(joinSessions([held(RECORD, A, A), held(SPEX, A, A), held(RECORD, B, B, { cwd: null, lastAt: '2026-12-02T00:00:00.000Z' })]));
    assert.deepEqual(projects.map((project) => [project.cwd, project.sessions.length]), [[null, 1], ['/home/dev/projects/checkout', 1]]);
  });
});
