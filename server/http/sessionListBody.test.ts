import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { foldSession, type SessionFold } from '../../shared/record/session.ts';
import { fileOf, nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import type { ListedConversation, Source } from '../sources/source.ts';
import { createSessionListBody } from './sessionListBody.ts';
import { createSummaryCache } from '../record/summaryCache.ts';
import { projectSummary } from '../record/projection.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';
import { sessionChangesResponseSchema } from '../../shared/wire/conversations.ts';
import { applyListChanges } from '../../shared/sessionList.ts';

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

/** Three sessions in two projects, the source that holds them, and its list. */
function threeSessions() {
  const folds = new Map([
    ['a', sessionIn('a', '/one', 1)],
    ['b', sessionIn('b', '/two', 2)],
    ['c', sessionIn('c', '/one', 3)],
  ]);
  const source = fakeSource(folds);
  const list = createSessionListBody([source]);
  const parsed = () => recordSessionsResponseSchema.parse(JSON.parse(Buffer.concat(list.body().chunks).toString('utf8')));
  return { folds, source, list, parsed };
}

describe('the list of sessions', () => {
  const { folds, source, list, parsed } = threeSessions();

  test('is the rec.sessions/4 list, grouped by project, latest activity first, whose length is the sum of its chunks', () => {
    const body = list.body();
    assert.equal(body.bytes, Buffer.concat(body.chunks).length);
    const got = parsed();
    assert.deepStrictEqual(
      got.projects.map((project) => [project.cwd, project.sessions.map((session) => session.sessionId)]),
      [['/one', ['c', 'a']], ['/two', ['b']]],
    );
    assert.deepStrictEqual(got.projects[1]!.sessions[0], projectSummary(folds.get('b')!, RECORD));
  });

  test('a change to one session encodes its project again and keeps the chunks of the others', () => {
    const before = list.body();
    assert.equal(list.body(), before, 'unchanged: the same body');
    folds.set('b', sessionIn('b', '/two', 5));
    source.bump();
    const after = list.body();
    assert.notEqual(after, before);
    const chunkOf = (body: typeof before, cwd: string) => body.chunks.find((chunk) => chunk.toString('utf8').startsWith(`{"cwd":"${cwd}"`));
    assert.equal(chunkOf(after, '/one'), chunkOf(before, '/one'));
    assert.notEqual(chunkOf(after, '/two'), chunkOf(before, '/two'));
    assert.equal(parsed().projects.find((project) => project.cwd === '/two')!.sessions[0]!.counts.sent, 5);
  });
});

describe('the list of sessions asked for what changed since a version', () => {
  const { folds, source, list, parsed: whole } = threeSessions();
  const changesSince = (version: string) => {
    const body = list.changesSince(version);
    return body === null ? null : sessionChangesResponseSchema.parse(JSON.parse(Buffer.concat(body.chunks).toString('utf8')));
  };

  test('names only the conversations changed or added since, and the list made from them is the whole list as of now', () => {
    const held = whole();
    assert.deepStrictEqual(changesSince(held.version)?.changed, [], 'nothing changed: nothing named');
    folds.set('b', sessionIn('b', '/two', 4));
    folds.set('d', sessionIn('d', '/three', 1));
    source.bump();
    const changes = changesSince(held.version)!;
    assert.deepStrictEqual(changes.changed.map((one) => one.id).toSorted(), ['b', 'd']);
    assert.deepStrictEqual(changes.removed, []);
    assert.equal(changes.since, held.version);
    const now = whole();
    assert.equal(changes.version, now.version);
    assert.deepStrictEqual(applyListChanges(held, changes), now);
  });

  test('a conversation no longer listed is named as removed, and is gone from the list made from the changes', () => {
    const held = whole();
    folds.delete('a');
    source.bump();
    const changes = changesSince(held.version)!;
    assert.deepStrictEqual(changes.removed, [{ source: RECORD, id: 'a' }]);
    assert.deepStrictEqual(applyListChanges(held, changes), whole());
  });

  test('a version this list did not make (another process, a later one, not a version) is answered with the whole list', () => {
    const { version } = whole();
    const [prefix, generation] = version.split('.');
    const otherPrefix = prefix === '00000000' ? '00000001' : '00000000';
    assert.equal(list.changesSince(`${otherPrefix}.${generation}`), null);
    assert.equal(list.changesSince(`${prefix}.${Number(generation) + 1}`), null);
    assert.equal(list.changesSince('not a version'), null);
    assert.equal(list.changesSince(`${prefix}.1e3`), null);
  });
});
