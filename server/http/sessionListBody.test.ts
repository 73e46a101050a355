import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { foldSession, type SessionFold } from '../../shared/record/session.ts';
import { fileOf, nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import type { ListedConversation, Source } from '../sources/source.ts';
import { createSessionListBody } from './sessionListBody.ts';
import { createSummaryCache } from '../record/summaryCache.ts';
import { projectSummary } from '../record/projection.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';

// The list of sessions is served from one chunk per project, kept while the project is unchanged.

function sessionIn(sessionId: string, cwd: string, sent: number): SessionFold {
  const files = [fileOf(nameAt(0, 1), startEntry(0, { sessionId, cwd }))];
  for (let i = 1; i <= sent; i++) files.push(fileOf(nameAt(i, i + 1), sentEntry(i, `m${i}`, { sessionId, cwd })));
  return foldSession(sessionId, files);
}

const RECORD = { kind: 'record', id: 'record-0123abcd' } as const;

/** A source whose conversations are record folds, projected as the record source projects them. */
function fakeSource(folds: Map<string, SessionFold>): Source & { bump(): void } {
  let version = 0;
  const summaryOf = createSummaryCache(RECORD);
  const listed = (id: string): ListedConversation | null => {
    const fold = folds.get(id);
    if (fold === undefined) return null;
    const { summary, json } = summaryOf(fold);
    return { id, cwd: summary.cwd, lastAt: summary.lastAt, session: summary.sessionId, sent: summary.counts.sent, received: summary.counts.received, degraded: summary.degraded.length > 0, json };
  };
  const unused = () => {
    throw new Error('the list asks for no page, item or search');
  };
  return {
    ref: RECORD,
    status: () => ({ ...RECORD, root: '/record', state: 'present', why: null, indexing: { state: 'ready', files: 0 } }),
    strays: () => [],
    version: () => String(version),
    *conversations() {
      for (const id of folds.keys()) yield listed(id)!;
    },
    conversation: listed,
    subscribe: () => () => {},
    page: unused,
    item: unused,
    views: {},
    search: unused,
    describeSearchHit: unused,
    stopWork: () => {},
    start: async () => {},
    close: async () => {},
    bump: () => void version++,
  };
}

describe('the list of sessions', () => {
  const folds = new Map([
    ['a', sessionIn('a', '/one', 1)],
    ['b', sessionIn('b', '/two', 2)],
    ['c', sessionIn('c', '/one', 3)],
  ]);
  const source = fakeSource(folds);
  const list = createSessionListBody([source]);
  const parsed = () => recordSessionsResponseSchema.parse(JSON.parse(Buffer.concat(list().chunks).toString('utf8')));

  test('is the rec.sessions/3 list, grouped by project, latest activity first, whose length is the sum of its chunks', () => {
    const body = list();
    assert.equal(body.bytes, Buffer.concat(body.chunks).length);
    const got = parsed();
    assert.deepStrictEqual(
      got.projects.map((project) => [project.cwd, project.sessions.map((session) => session.sessionId)]),
      [['/one', ['c', 'a']], ['/two', ['b']]],
    );
    assert.deepStrictEqual(got.projects[1]!.sessions[0], projectSummary(folds.get('b')!, RECORD));
  });

  test('a change to one session encodes its project again and keeps the chunks of the others', () => {
    const before = list();
    assert.equal(list(), before, 'unchanged: the same body');
    folds.set('b', sessionIn('b', '/two', 5));
    source.bump();
    const after = list();
    assert.notEqual(after, before);
    const chunkOf = (body: typeof before, cwd: string) => body.chunks.find((chunk) => chunk.toString('utf8').startsWith(`{"cwd":"${cwd}"`));
    assert.equal(chunkOf(after, '/one'), chunkOf(before, '/one'));
    assert.notEqual(chunkOf(after, '/two'), chunkOf(before, '/two'));
    assert.equal(parsed().projects.find((project) => project.cwd === '/two')!.sessions[0]!.counts.sent, 5);
  });
});
