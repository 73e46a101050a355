import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { foldSession, type SessionFold } from '../../shared/record/session.ts';
import { fileOf, nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import type { ListedConversation, Source } from '../sources/source.ts';
import { createLoopTurns } from '../sources/loopTurns.ts';
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
    throw new Error('the list asks for no page, item, first line or search');
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
    firstLines: unused,
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
  const parsed = async () => recordSessionsResponseSchema.parse(JSON.parse(Buffer.concat((await list.body()).chunks).toString('utf8')));
  return { folds, source, list, parsed };
}

describe('the list of sessions', () => {
  const { folds, source, list, parsed } = threeSessions();

  test('is the rec.sessions/4 list, grouped by project, latest activity first, whose length is the sum of its chunks', async () => {
    const body = await list.body();
    assert.equal(body.bytes, Buffer.concat(body.chunks).length);
    const got = await parsed();
    assert.deepStrictEqual(
      got.projects.map((project) => [project.cwd, project.sessions.map((session) => session.sessionId)]),
      [['/one', ['c', 'a']], ['/two', ['b']]],
    );
    assert.deepStrictEqual(got.projects[1]!.sessions[0], projectSummary(folds.get('b')!, RECORD));
  });

  test('asked for as lines, it is its envelope on the first line, then each project on a line of its own: the same list', async () => {
    const body = await list.body();
    const text = Buffer.concat(body.lines.chunks).toString('utf8');
    assert.equal(body.lines.bytes, Buffer.byteLength(text));
    assert.ok(text.endsWith('\n'));
    const [head, ...projects] = text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepStrictEqual(Object.keys(head!), ['schema', 'version', 'sources', 'degradedSessions']);
    assert.deepStrictEqual({ ...head, projects }, await parsed());
  });

  test('a change to one session encodes its project again and keeps the chunks of the others', async () => {
    const before = await list.body();
    assert.equal(await list.body(), before, 'unchanged: the same body');
    folds.set('b', sessionIn('b', '/two', 5));
    source.bump();
    const after = await list.body();
    assert.notEqual(after, before);
    const chunkOf = (body: typeof before, cwd: string) => body.chunks.find((chunk) => chunk.toString('utf8').startsWith(`{"cwd":"${cwd}"`));
    assert.equal(chunkOf(after, '/one'), chunkOf(before, '/one'));
    assert.notEqual(chunkOf(after, '/two'), chunkOf(before, '/two'));
    assert.equal((await parsed()).projects.find((project) => project.cwd === '/two')!.sessions[0]!.counts.sent, 5);
  });
});

describe('the list of sessions asked for what changed since a version', () => {
  const { folds, source, list, parsed: whole } = threeSessions();
  const changesSince = async (version: string) => {
    const body = await list.changesSince(version);
    return body === null ? null : sessionChangesResponseSchema.parse(JSON.parse(Buffer.concat(body.chunks).toString('utf8')));
  };

  test('names only the conversations changed or added since, and the list made from them is the whole list as of now', async () => {
    const held = await whole();
    assert.deepStrictEqual((await changesSince(held.version))?.changed, [], 'nothing changed: nothing named');
    folds.set('b', sessionIn('b', '/two', 4));
    folds.set('d', sessionIn('d', '/three', 1));
    source.bump();
    const changes = (await changesSince(held.version))!;
    assert.deepStrictEqual(changes.changed.map((one) => one.id).toSorted(), ['b', 'd']);
    assert.deepStrictEqual(changes.removed, []);
    assert.equal(changes.since, held.version);
    const now = await whole();
    assert.equal(changes.version, now.version);
    assert.deepStrictEqual(applyListChanges(held, changes), now);
  });

  test('a conversation no longer listed is named as removed, and is gone from the list made from the changes', async () => {
    const held = await whole();
    folds.delete('a');
    source.bump();
    const changes = (await changesSince(held.version))!;
    assert.deepStrictEqual(changes.removed, [{ source: RECORD, id: 'a' }]);
    assert.deepStrictEqual(applyListChanges(held, changes), await whole());
  });

  test('says the whole list\'s degraded count as of its version, as the whole list would', async () => {
    const held = await whole();
    // A session without its start entry: degraded evidence.
    folds.set('e', foldSession('e', [fileOf(nameAt(1, 2), sentEntry(1, 'm1', { sessionId: 'e', cwd: '/one' }))]));
    source.bump();
    const changes = (await changesSince(held.version))!;
    const now = await whole();
    assert.equal(now.degradedSessions, held.degradedSessions + 1);
    assert.equal(changes.degradedSessions, now.degradedSessions);
  });

  test('a version this list did not make (another process, a later one, not a version) is answered with the whole list', async () => {
    const { version } = await whole();
    const [prefix, generation] = version.split('.');
    const otherPrefix = prefix === '00000000' ? '00000001' : '00000000';
    assert.equal(await list.changesSince(`${otherPrefix}.${generation}`), null);
    assert.equal(await list.changesSince(`${prefix}.${Number(generation) + 1}`), null);
    assert.equal(await list.changesSince('not a version'), null);
    assert.equal(await list.changesSince(`${prefix}.1e3`), null);
  });
});

describe('the list of sessions built in steps', () => {
  /** Sessions a-… in three projects, listed through a source that counts what it has listed. */
  function manySessions(count: number) {
    const folds = new Map<string, SessionFold>();
    for (let i = 0; i < count; i++) folds.set(`s${i}`, sessionIn(`s${i}`, `/p${i % 3}`, 1 + (i % 4)));
    const source = fakeSource(folds);
    let listedSoFar = 0;
    const counted = {
      ...source,
      *conversations() {
        for (const conversation of source.conversations()) {
          listedSoFar++;
          yield conversation;
        }
      },
    };
    // Turns of a microsecond: each conversation a turn of its own; the order is counted, never timed.
    const list = createSessionListBody([counted], createLoopTurns(0.001));
    return { folds, source, list, listed: () => listedSoFar };
  }

  test('a list of many conversations is built a conversation a step, in the shared turns: what arrives meanwhile is read before the list is whole', async () => {
    const { list, listed } = manySessions(40);
    let listedWhenArrived: number | null = null;
    const building = list.body();
    setImmediate(() => (listedWhenArrived = listed()));
    await building;
    assert.notEqual(listedWhenArrived, null);
    assert.ok(listedWhenArrived! < 40, `what arrived was read after ${listedWhenArrived} of 40 conversations were listed`);
  });

  test('a conversation that changes while the list is built is in the next list asked for: a list that may have missed a change is not kept as current', async () => {
    const { folds, source, list, listed } = manySessions(40);
    const building = list.body();
    // Once the first conversations are listed, the first changes.
    const changeOnceListed = () => {
      if (listed() < 2) return void setImmediate(changeOnceListed);
      folds.set('s0', sessionIn('s0', '/p0', 9));
      source.bump();
    };
    setImmediate(changeOnceListed);
    const first = await building;
    const sentOf = async () => {
      const body = recordSessionsResponseSchema.parse(JSON.parse(Buffer.concat((await list.body()).chunks).toString('utf8')));
      return body.projects.flatMap((project) => project.sessions).find((session) => session.sessionId === 's0')!.counts.sent;
    };
    assert.notEqual(await list.body(), first, 'built again');
    assert.equal(await sentOf(), 9);
  });

  test('two asking at once are answered from one build', async () => {
    const { list, listed } = manySessions(40);
    const [a, b] = await Promise.all([list.body(), list.body()]);
    assert.equal(a, b);
    assert.equal(listed(), 40, 'each conversation listed once');
  });
});
