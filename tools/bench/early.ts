import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { entryFileName } from '../../server/demo/entryFile.ts';
import { connectEvents, startDashboardProcess, timedGet, type DashboardProcess } from './dashboardProcess.ts';
import type { GeneratedRecord } from './generateRecord.ts';
import { createSeededRandom } from '../../shared/seededRandom.ts';

export type EarlyWrite = {
  /** ms after the first answer that the file was written. */
  afterFirstAnswerMs: number;
  /** A brand-new session folder rather than an entry in a generated session. */
  newFolder: boolean;
  /** Indexing state (as last told) when the file was written. */
  indexing: string;
  /** Written → the first session-changed notice for its session; null if none came. */
  noticeMs: number | null;
};

export type EarlyResult = {
  firstAnswerMs: number;
  firstAnswerIndexing: string;
  readyMs: number | null;
  writes: EarlyWrite[];
  /** Files and folders written, for the bench to remove afterwards. */
  written: string[];
};

/**
 * Starts the command on a record and, from the moment its API first answers, writes an entry
 * every `gapMs` for `windowMs`: most into generated sessions, each a different one in a
 * seeded random order (so some the first scan has read and some it has not), every fifth into a
 * new session folder. Times each write to the first session-changed notice for its session;
 * a notice still missing `lateMs` after the window is counted as never told.
 */
export async function measureEarly(bin: string, recordDir: string, record: GeneratedRecord, options: { windowMs: number; gapMs: number; lateMs: number }): Promise<EarlyResult> {
  const dashboard: DashboardProcess = await startDashboardProcess(bin, recordDir);
  try {
    const first = await timedGet<{ sources: { indexing: { state: string } }[] }>(dashboard.url, '/api/sessions');
    const firstAnswerAt = performance.now();
    const events = await connectEvents(dashboard.url);
    const random = createSeededRandom(7);
    const order = record.sessionIds.filter((id) => !record.bigSessionIds.includes(id));
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const pending: { sessionId: string; writtenAt: number; write: EarlyWrite }[] = [];
    const written: string[] = [];
    let indexing = first.body.sources[0]!.indexing.state;
    for (let i = 0; performance.now() - firstAnswerAt < options.windowMs; i++) {
      const newFolder = i % 5 === 4;
      const sessionId = newFolder ? `bench-early-${i}` : order[i % order.length]!;
      const tail = record.tails[sessionId];
      const at = new Date(Math.max(tail?.lastAt ?? 0, Date.now() - 60_000) + 1_000).toISOString();
      const seq = tail?.nextSeq ?? 1;
      const folder = join(recordDir, sessionId);
      if (newFolder) mkdirSync(folder);
      const path = join(folder, entryFileName(at, seq));
      const entry = newFolder
        ? { kind: 'start', sessionId, at, cwd: '/home/dev/projects/bench-early', host: 'claude-code', version: '2.1.314', inbound: 'accept' }
        : { kind: 'message', sessionId, at, side: 'sent', peer: { as: 'api-service' }, text: `early entry ${i}`, isQueued: true, cwd: tail!.cwd };
      for (const notice of events.notices) if (notice.event.type === 'source') indexing = notice.event.source.indexing.state;
      const writtenAt = performance.now();
      writeFileSync(path, JSON.stringify(entry));
      written.push(newFolder ? folder : path);
      const write: EarlyWrite = { afterFirstAnswerMs: writtenAt - firstAnswerAt, newFolder, indexing, noticeMs: null };
      pending.push({ sessionId, writtenAt, write });
      await sleep(Math.max(0, writtenAt + options.gapMs - performance.now()));
    }
    const deadline = performance.now() + options.lateMs;
    await Promise.all(
      pending.map(async ({ sessionId, writtenAt, write }) => {
        try {
          const notice = await events.next(
            (n) => n.at >= writtenAt && n.event.type === 'session-changed' && n.event.sessionId === sessionId,
            Math.max(1, deadline - performance.now()),
          );
          write.noticeMs = notice.at - writtenAt;
        } catch {
          // Never told within the wait: noticeMs stays null.
        }
      }),
    );
    let readyAt: number | null = null;
    try {
      readyAt = (await events.next((n) => n.event.type === 'source' && n.event.source.indexing.state === 'ready', Math.max(1, deadline - performance.now()))).at;
    } catch {
      readyAt = null;
    }
    events.close();
    return {
      firstAnswerMs: firstAnswerAt - dashboard.spawnedAt,
      firstAnswerIndexing: first.body.sources[0]!.indexing.state,
      readyMs: readyAt === null ? null : readyAt - dashboard.spawnedAt,
      writes: pending.map((p) => p.write),
      written,
    };
  } finally {
    await dashboard.stop();
  }
}
