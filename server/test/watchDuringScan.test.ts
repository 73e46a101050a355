import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, it } from 'node:test';
import { sessionResponseSchema, type SessionSummary } from '../../shared/wire/record.ts';
import { nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { startWriter } from '../../tools/writer/writerClient.ts';
import { connectEventStream, type Notice } from './eventStream.ts';
import { eventually, getJson, makeTempRecord, startTestDashboard } from './harness.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';

// The record is watched from the moment the API first answers, not from the end of the first
// scan: a write made while the scan still runs is told as it happens. The record is large
// enough that its first scan takes a while; nothing here is timed, only ordered.

const FOLDERS = 400;
const ENTRIES = 40;
const BURST = 20;
// Reconciles would find the writes too; put off, only the watcher can tell them.
const NO_RECONCILE = 600_000;

function writeLargeRecord(dir: string): string[] {
  const sessionIds: string[] = [];
  for (let i = 0; i < FOLDERS; i++) {
    const sessionId = `s${String(i).padStart(3, '0')}`;
    sessionIds.push(sessionId);
    mkdirSync(join(dir, sessionId));
    writeFileSync(join(dir, sessionId, nameAt(0, 1)), JSON.stringify({ ...startEntry(0), sessionId }));
    for (let seq = 2; seq <= ENTRIES; seq++) {
      writeFileSync(join(dir, sessionId, nameAt(seq % 60, seq, seq)), JSON.stringify({ ...sentEntry(seq % 60, `entry ${seq} of ${sessionId}`), sessionId }));
    }
  }
  return sessionIds;
}

function messagesOf(summary: SessionSummary): number {
  return summary.counts.sent + summary.counts.received;
}

describe('watching while the first scan runs', () => {
  it('writes made right after the API first answers, while the first scan still runs, are told before it ends, each session read whole', { timeout: 120_000 }, async () => {
    const record = makeTempRecord();
    writeLargeRecord(record.dir);
    // In the order the scan meets them: the first has likely been read when the writes come,
    // the last has likely not. Either way its notice must carry the whole session.
    const listed = readdirSync(record.dir);
    const early = listed[0]!;
    const late = listed.at(-1)!;
    const writer = await startWriter(record.dir);
    const dashboard = await startTestDashboard(record.dir, { reconcileIntervalMs: NO_RECONCILE });
    const events = await connectEventStream(dashboard.url);
    try {
      const first = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
      assert.equal(first.sources[0]!.indexing.state, 'scanning', 'the first answer comes while the scan runs');
      await writer.send({ op: 'write', sessionId: early, seq: ENTRIES + 1, entry: { ...sentEntry(59, 'written during the scan'), sessionId: early } });
      await writer.send({ op: 'burst', sessionId: late, count: BURST, startSeq: ENTRIES + 1, cwd: '/home/dev/projects/late' });
      await writer.send({ op: 'write', sessionId: 'fresh', seq: 1, entry: { ...startEntry(1), sessionId: 'fresh' } });
      assert.equal((await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema)).sources[0]!.indexing.state, 'scanning', 'the writes were made while the scan ran');

      const ready = await events.next((n) => n.event.type === 'source' && n.event.source.indexing.state === 'ready', 60_000);
      const toldBefore = (sessionId: string, match: (summary: SessionSummary) => boolean): Notice | undefined =>
        events.notices.find((n) => n.at <= ready.at && n.event.type === 'session-changed' && n.event.sessionId === sessionId && match(n.event.session));
      assert.ok(toldBefore(early, (s) => messagesOf(s) === ENTRIES), `a notice for ${early} with its new entry, before the scan ended`);
      assert.ok(toldBefore(late, (s) => messagesOf(s) === ENTRIES - 1 + BURST && s.hasStart), `a notice for ${late} with the whole burst and its older entries, before the scan ended`);
      assert.ok(toldBefore('fresh', (s) => s.hasStart), 'a notice for the new session folder, before the scan ended');
      // The scan's own reading is not told folder by folder: indexing progress says it.
      const toldSessions = new Set(events.notices.filter((n) => n.at <= ready.at && n.event.type === 'session-changed').map((n) => (n.event as { sessionId: string }).sessionId));
      assert.ok(toldSessions.size <= 3, `only the sessions written to are told during the scan, not ${[...toldSessions].join(', ')}`);

      // Nothing lost, nothing taken for a change after it was read.
      for (const [sessionId, total] of [[early, ENTRIES + 1], [late, ENTRIES + BURST], ['fresh', 1]] as const) {
        const page = await eventually(async () => {
          const got = await getJson(dashboard, `/api/sessions/${sessionId}?limit=1`, sessionResponseSchema);
          return got.page.total === total ? got : undefined;
        }, `${total} entries in ${sessionId}`);
        assert.deepEqual(page.session.degraded, [], sessionId);
      }
      const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
      assert.equal(list.projects.flatMap((project) => project.sessions).length, FOLDERS + 1);
    } finally {
      events.close();
      await writer.kill();
      await dashboard.close();
      record.remove();
    }
  });

  it('an entry written while the first scan runs is listed live, as an item, whether the scan had read its folder or not, and so is a new folder\'s', { timeout: 120_000 }, async () => {
    const record = makeTempRecord();
    writeLargeRecord(record.dir);
    const listed = readdirSync(record.dir);
    // Late in the scan's order: read after the write, by a scan thread, out of turn.
    const lateOnes = listed.slice(-40).filter((_, at) => at % 4 === 0);
    const writer = await startWriter(record.dir);
    const dashboard = await startTestDashboard(record.dir, { reconcileIntervalMs: NO_RECONCILE });
    const events = await connectEventStream(dashboard.url);
    try {
      assert.equal((await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema)).sources[0]!.indexing.state, 'scanning', 'the first answer comes while the scan runs');
      const written: [string, string][] = [];
      for (const sessionId of lateOnes) {
        const ack = await writer.send({ op: 'write', sessionId, seq: ENTRIES + 1, entry: { ...sentEntry(59, 'written during the scan'), sessionId } });
        written.push([sessionId, basename(String(ack.file))]);
      }
      const fresh = await writer.send({ op: 'write', sessionId: 'fresh-live', seq: 1, entry: { ...startEntry(1), sessionId: 'fresh-live' } });
      written.push(['fresh-live', basename(String(fresh.file))]);
      const untold: string[] = [];
      for (const [sessionId, name] of written) {
        try {
          await events.next((n) => n.event.type === 'items' && n.event.sessionId === sessionId && n.event.items.some((item) => item.key === name), 10_000);
        } catch {
          untold.push(`${sessionId}/${name}`);
        }
      }
      assert.deepEqual(untold, [], 'entries written during the scan and never listed live');
    } finally {
      events.close();
      await writer.kill();
      await dashboard.close();
      record.remove();
    }
  });

  it('every session written to while the first scan reads the record is told, whichever thread reads it and whenever', { timeout: 120_000 }, async () => {
    const record = makeTempRecord();
    const sessionIds = writeLargeRecord(record.dir);
    // Every fourth folder in the scan's order: some read by this thread, some by the worker,
    // some just before or just after the write reaches them.
    const written = readdirSync(record.dir).filter((_, at) => at % 4 === 0);
    assert.equal(written.length, sessionIds.length / 4);
    const writer = await startWriter(record.dir);
    const dashboard = await startTestDashboard(record.dir, { reconcileIntervalMs: NO_RECONCILE });
    const events = await connectEventStream(dashboard.url);
    try {
      assert.equal((await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema)).sources[0]!.indexing.state, 'scanning', 'the first answer comes while the scan runs');
      for (const sessionId of written) {
        await writer.send({ op: 'write', sessionId, seq: ENTRIES + 1, entry: { ...sentEntry(59, 'written during the scan'), sessionId } });
      }
      await events.next((n) => n.event.type === 'source' && n.event.source.indexing.state === 'ready', 60_000);
      const untold = [];
      for (const sessionId of written) {
        try {
          await events.next((n) => n.event.type === 'session-changed' && n.event.sessionId === sessionId && messagesOf(n.event.session) === ENTRIES, 2_000);
        } catch {
          untold.push(sessionId);
        }
      }
      assert.deepEqual(untold, [], 'sessions whose new entry was never told');
    } finally {
      events.close();
      await writer.kill();
      await dashboard.close();
      record.remove();
    }
  });
});
