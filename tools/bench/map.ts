import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { entryFileName } from '../../server/demo/entryFile.ts';
import { BENCH_AUTH, connectEvents, startDashboardProcess, timedGet } from './dashboardProcess.ts';
import { LAUNCH } from './liveView.ts';
import { readPeakRss } from './proc.ts';
import type { Row } from './report.ts';
import { median, spread } from './stats.ts';

// The map phase: a record of 200 sessions in 10 projects, each talking to 20 peers (two sent
// entries to each, and one received from each of the 20 that send to it: 4,000 edges), drawn by
// the Map view in Debian's Chromium. First render: navigation → the frame that holds every edge,
// beside GET /api/map alone. Update: an entry written → its edge's count changed on screen,
// beside its item notice at a client of the event stream. Both stamped in the page. One edge
// (session 0 to session 1) has 500 messages: its list, each with its text's first line read from
// its file as the answer is made, is timed beside GET /api/map.

const SESSIONS = 200;
const PEERS = 20;
const RENDERS = 3;
const WRITES = 40;
/** The messages of the busy edge, session 0 → session 1: as many as an edge's list gives. */
const BUSY_EDGE = 500;

const idOf = (index: number) => `${String(index).padStart(8, '0')}-0000-4000-8000-${String(index).padStart(12, '0')}`;
const cwdOf = (index: number) => `/home/dev/projects/map-${index % 10}`;

function writeRecord(dir: string): { nextSeq: number[]; last: number } {
  const base = Date.parse('2026-11-01T00:00:00.000Z');
  const nextSeq: number[] = [];
  let last = base;
  for (let s = 0; s < SESSIONS; s++) {
    const id = idOf(s);
    const folder = join(dir, id);
    mkdirSync(folder, { recursive: true });
    let seq = 1;
    const put = (at: number, entry: Record<string, unknown>) => {
      last = Math.max(last, at);
      writeFileSync(join(folder, entryFileName(new Date(at), seq++)), JSON.stringify({ sessionId: id, at: new Date(at).toISOString(), cwd: cwdOf(s), ...entry }));
    };
    put(base, { kind: 'start', host: 'claude-code', version: '2.1.314', inbound: 'accept' });
    for (let p = 1; p <= PEERS; p++) {
      const to = idOf((s + p) % SESSIONS);
      const from = idOf((s - p + SESSIONS) % SESSIONS);
      const at = base + p * 60_000 + s;
      put(at, { kind: 'message', side: 'sent', peer: { as: `uds:/tmp/cc-socks/${(s + p) % SESSIONS}.sock`, sessionId: to }, text: `to ${p}`, isQueued: true });
      put(at + 1, { kind: 'message', side: 'sent', peer: { as: `uds:/tmp/cc-socks/${(s + p) % SESSIONS}.sock`, sessionId: to }, text: `again to ${p}`, isQueued: p % 5 !== 0 });
      put(at + 2, { kind: 'message', side: 'received', peer: { as: `uds:/tmp/cc-socks/${(s - p + SESSIONS) % SESSIONS}.sock`, sessionId: from }, envelope: {}, text: `from ${p}`, outcome: p % 7 === 0 ? 'rejected' : 'consumed' });
    }
    // The busy edge: its three messages above, and as many more sent as make BUSY_EDGE.
    if (s === 0) {
      const to = idOf(1);
      for (let k = 0; k < BUSY_EDGE - 3; k++) put(base + 30 * 60_000 + k, { kind: 'message', side: 'sent', peer: { as: 'uds:/tmp/cc-socks/1.sock', sessionId: to }, text: `busy ${k}: ${'a line of words on the busy edge, '.repeat(6)}\nand a second line`, isQueued: true });
    }
    nextSeq.push(seq);
  }
  return { nextSeq, last };
}

type MapSeen = { renderedAt: number | null; changes: Record<string, { messages: number; at: number }> };

/** In the page before its scripts: stamps the frame every edge is drawn in, and each edge's count change (Date.now()). */
function watchMap(expectedEdges: number): void {
  type Element = { getAttribute(name: string): string | null };
  type Window = {
    document: { querySelectorAll(selector: string): { length: number } & Iterable<Element> };
    requestAnimationFrame(callback: () => void): number;
    MutationObserver: new (callback: (records: { target: Element }[]) => void) => { observe(target: unknown, options: object): void };
    __map: MapSeen;
  };
  const page = globalThis as unknown as Window;
  const seen: MapSeen = { renderedAt: null, changes: {} };
  page.__map = seen;
  let scheduled = false;
  new page.MutationObserver((records) => {
    const now = Date.now();
    for (const record of records) {
      // Text nodes change too (a count in the header): only an edge's attribute is an edge's count.
      if (typeof record.target.getAttribute !== 'function') continue;
      const key = record.target.getAttribute('data-edge');
      const messages = Number(record.target.getAttribute('data-messages'));
      if (key !== null) seen.changes[key] = { messages, at: now };
    }
    if (seen.renderedAt !== null || scheduled) return;
    scheduled = true;
    page.requestAnimationFrame(() => {
      scheduled = false;
      if (page.document.querySelectorAll('.map-edge').length >= expectedEdges) seen.renderedAt ??= Date.now();
    });
  }).observe(page.document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-messages'] });
}

export async function measureMap(bin: string, dir: string, log: (message: string) => void): Promise<Row[]> {
  const record = join(dir, `map-${SESSIONS}x${PEERS}`);
  log(`map: writing a record of ${SESSIONS} sessions × ${PEERS} peers`);
  const { nextSeq, last } = writeRecord(record);
  const dashboard = await startDashboardProcess(bin, record);
  const events = await connectEvents(dashboard.url);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch(LAUNCH);
  const rows: Row[] = [];
  try {
    for (let i = 0; i < 600; i++) {
      const { body } = await timedGet<{ sources: { indexing: { state: string } }[] }>(dashboard.url, '/api/sessions');
      if (body.sources.every((source) => source.indexing.state === 'ready')) break;
      await sleep(50);
    }
    const api: number[] = [];
    let edges = 0;
    for (let i = 0; i < RENDERS; i++) {
      const answer = await timedGet<{ edges: unknown[] }>(dashboard.url, '/api/map', { collectFirst: true });
      api.push(answer.ms);
      edges = answer.body.edges.length;
    }
    const busyEdge = `/api/map/messages?from=${encodeURIComponent(`session:${idOf(0)}`)}&to=${encodeURIComponent(`session:${idOf(1)}`)}`;
    const listed: number[] = [];
    let lines = 0;
    for (let i = 0; i < RENDERS; i++) {
      const answer = await timedGet<{ messages: { firstLine: string | null }[] }>(dashboard.url, busyEdge, { collectFirst: true });
      listed.push(answer.ms);
      lines = answer.body.messages.filter((message) => message.firstLine !== null).length;
    }
    log(`map: the busy edge's list ${listed.map((ms) => Math.round(ms)).join(', ')} ms, ${lines} first lines`);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.setExtraHTTPHeaders(BENCH_AUTH);
    await page.addInitScript(watchMap, edges);
    const renders: number[] = [];
    for (let i = 0; i < RENDERS; i++) {
      const started = Date.now();
      await page.goto(`${dashboard.url}map`);
      const at = await page.waitForFunction(() => (globalThis as unknown as { __map: MapSeen }).__map.renderedAt, null, { timeout: 60_000, polling: 50 });
      renders.push((await at.jsonValue())! - started);
    }
    log(`map: first renders ${renders.map((ms) => Math.round(ms)).join(', ')} ms`);
    await sleep(500);

    log(`map: ${WRITES} writes, each timed to its edge's count on screen`);
    const updates: number[] = [];
    const notices: number[] = [];
    let missed = 0;
    let time = last;
    for (let i = 0; i < WRITES; i++) {
      const s = (i * 37) % SESSIONS;
      const p = 1 + (i % PEERS);
      const from = idOf(s);
      const to = idOf((s + p) % SESSIONS);
      const key = `session:${from}\nsession:${to}`;
      const before = await page.evaluate((edge) => {
        type Found = { getAttribute(name: string): string | null };
        const all = (globalThis as unknown as { document: { querySelectorAll(selector: string): Iterable<Found> } }).document.querySelectorAll('.map-edge');
        for (const found of all) if (found.getAttribute('data-edge') === edge) return Number(found.getAttribute('data-messages'));
        return 0;
      }, key);
      time += 1_000;
      const name = entryFileName(new Date(time), nextSeq[s]!++);
      const entry = { kind: 'message', sessionId: from, at: new Date(time).toISOString(), cwd: cwdOf(s), side: 'sent', peer: { as: 'uds:/tmp/cc-socks/x.sock', sessionId: to }, text: `live ${i}`, isQueued: true };
      const noticeCount = events.notices.length;
      const writtenAt = performance.now();
      const writtenAtClock = Date.now();
      writeFileSync(join(record, from, name), JSON.stringify(entry));
      const [notice, change] = await Promise.allSettled([
        events.next((n) => n.event.type === 'items' && n.event.items.some((item) => item.key === name) && events.notices.indexOf(n) >= noticeCount, 10_000),
        page
          .waitForFunction(([edge, count]) => { const seen = (globalThis as unknown as { __map: MapSeen }).__map.changes[edge]; return seen !== undefined && seen.messages > count ? seen.at : null; }, [key, before] as const, { timeout: 10_000, polling: 20 })
          .then((handle) => handle.jsonValue()),
      ]);
      if (notice.status === 'fulfilled') notices.push(notice.value.at - writtenAt);
      if (change.status === 'fulfilled' && change.value !== null) updates.push(change.value - writtenAtClock);
      else missed++;
      if (i % 10 === 9) log(`map: ${i + 1} writes, ${missed} missed`);
      await sleep(100 + Math.random() * 100);
    }
    const render = median(renders);
    const update = spread(updates);
    const notice = spread(notices);
    rows.push(
      { measure: `map: first render, ${SESSIONS} sessions × ${PEERS} peers (median)`, value: render, unit: 'ms', baseline: { value: median(api), what: 'GET /api/map' }, ratio: render / median(api), note: `${edges.toLocaleString('en')} edges; navigation → the frame holding every edge; ${renders.map((ms) => Math.round(ms)).join(', ')} ms` },
      { measure: 'map: written → edge updated on screen (p95)', value: update.p95, unit: 'ms', baseline: { value: notice.p95, what: 'item notice' }, ratio: update.p95 / notice.p95, note: `p50 ${update.p50.toFixed(1)} ms, max ${update.max.toFixed(1)} ms over ${update.n} writes, missed ${missed}` },
      {
        measure: `map: an edge's ${BUSY_EDGE} messages, each with its first line (median)`,
        value: median(listed),
        unit: 'ms',
        baseline: { value: median(api), what: 'GET /api/map' },
        ratio: median(listed) / median(api),
        note: `${lines} first lines, each read from its entry's file as the answer is made; ${listed.map((ms) => Math.round(ms)).join(', ')} ms`,
      },
      { measure: 'map: server peak RSS', value: (readPeakRss(dashboard.pid) ?? 0) / 1024 / 1024, unit: 'MB' },
      { measure: 'map: errors in the page', value: errors.length, unit: 'count', target: 'none', met: errors.length === 0, ...(errors.length > 0 ? { note: errors[0]! } : {}) },
    );
  } finally {
    events.close();
    await browser.close();
    await dashboard.stop();
  }
  return rows;
}
