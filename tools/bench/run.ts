import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureApi } from './api.ts';
import { startBareWatcher } from './bareWatcherClient.ts';
import { measureBrowser, type BrowserResult } from './browser.ts';
import { measureColdStart, measureIdle, removeProbe, runBaselineScan, type BaselineScan, type ColdStart } from './coldStart.ts';
import { readNodeOptions, type DashboardProcess, type StorePhaseOptions } from './dashboardProcess.ts';
import { generateRecord, removeLeftovers, type GeneratedRecord, type RecordShape } from './generateRecord.ts';
import { measureEarly } from './early.ts';
import { measureExport } from './export.ts';
import { measureHeavyKinds } from './heavyKinds.ts';
import { measureStoreSearches } from './storeSearches.ts';
import { measureBurst, measureLive, type LiveTarget } from './live.ts';
import { measureLiveEarly } from './liveEarly.ts';
import { measureLiveView } from './liveView.ts';
import { measureMap } from './map.ts';
import { MIXED_SHAPE, measureMixed } from './mixed.ts';
import { readPeakRss } from './proc.ts';
import { describeProfile, profileFirstScan } from './profile.ts';
import { SCAN_LAYERS, SCAN_STEPS, runScanLayer, runScanSteps, type LayerRun } from './scanLayers.ts';
import type { PageCost } from './freshPages.mjs';
import { formatTable, freshPagesRow, type Row } from './report.ts';
import { measureSac } from './sac.ts';
import { measureSessionPage } from './sessionPage.ts';
import { SEARCHES_AT_ONCE, measureLargeEntries, measureSearch, type SearchLoad } from './search.ts';
import { median, spread, sum } from './stats.ts';
import { measureSpex } from './spex.ts';

// npm run bench [-- --scale 1m] [--out file.json] [--dir records/] [--source] [--bin other/dist/server/bin.js] [--only cold,idle,live,...]
//
// Generates a record, runs the real rec-dashboard command on it, and times each thing beside
// its baseline taken in the same run: a plain synchronous scan for reading, a bare chokidar
// watcher for watching. Prints one table and writes the figures as JSON.

const USAGE = `Usage: npm run bench -- [options]
  --scale 100k|1m   the main record: 1,000 sessions × 100 entries (default) or 5,000 × 200
  --only <phases>   a comma-separated subset of: cold,idle,live,burst,liveview,early,liveearly,search,api,export,session,browser,spex,sac,map,heavy,mixed,stores,profile,layers
                    (profile, a CPU profile of the first scan on every thread, and layers, a scan thread's
                    steps one by one on one thread beside the plain scan, only when named)
  --repeat <n>      cold starts, each beside a baseline scan (default 3 at 100k, 1 at 1m)
  --writes <n>      live writes per series (default 200)
  --idle <s>        seconds of idle sampling; a reconcile falls in 35 s (default 35)
  --dir <path>      keep generated records here and reuse them (default: a temp dir, removed)
  --out <file>      where to write the JSON (default: rec-bench-<scale>.json in --dir, else in the OS temp dir)
  --source          run server/bin.ts rather than the built dist/server/bin.js
  --bin <path>      run this command instead (another checkout's dist/server/bin.js), measured by this bench
  --from-disk       the record's cold starts and their plain scans, and the spex and sac phases'
                    indexing and plain reads, each begin with the page cache dropped, as after a
                    reboot (needs root: it writes /proc/sys/vm/drop_caches); without it all read
                    stores the page cache holds`;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PHASES = ['cold', 'idle', 'live', 'burst', 'liveview', 'early', 'liveearly', 'search', 'api', 'export', 'session', 'browser', 'spex', 'sac', 'map', 'heavy', 'mixed', 'stores', 'profile', 'layers'] as const;
type Phase = (typeof PHASES)[number];

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '100k' },
    only: { type: 'string' },
    repeat: { type: 'string' },
    writes: { type: 'string', default: '200' },
    idle: { type: 'string', default: '35' },
    dir: { type: 'string' },
    out: { type: 'string' },
    source: { type: 'boolean', default: false },
    bin: { type: 'string' },
    'from-disk': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (values.scale !== '100k' && values.scale !== '1m') {
  console.error(`bench: --scale is 100k or 1m, not ${values.scale}\n${USAGE}`);
  process.exit(2);
}
const scale = values.scale;
// The profile is asked for by name: the profiler slows what it watches.
const phases = new Set<Phase>(
  values.only === undefined ? PHASES.filter((p) => p !== 'profile' && p !== 'layers' && ((p !== 'browser' && p !== 'liveview' && p !== 'liveearly' && p !== 'map') || existsSync(join(ROOT, 'dist/web/index.html')))) : (values.only.split(',') as Phase[]),
);
const repeat = Number(values.repeat ?? (scale === '1m' ? 1 : 3));
const writes = Number(values.writes);
const idleSeconds = Number(values.idle);
const bin = values.bin ?? (values.source ? join(ROOT, 'server/bin.ts') : join(ROOT, 'dist/server/bin.js'));
if (!existsSync(bin)) {
  console.error(`bench: ${bin} is missing; run npm run build first, or pass --source`);
  process.exit(2);
}
/** A kind's source module of the command measured: the built one beside dist/server/bin.js, the source beside server/bin.ts. */
function sourceModuleBeside(command: string, kind: 'spex' | 'sac'): string {
  return join(dirname(command), kind, `${kind}Source${command.endsWith('.ts') ? '.ts' : '.js'}`);
}
const fromDisk = values['from-disk'];

/** What a page's first touch costs here, measured in a fresh process (freshPages.mjs). */
function measurePageCost(): PageCost {
  return JSON.parse(execFileSync(process.execPath, [fileURLToPath(new URL('./freshPages.mjs', import.meta.url))], { encoding: 'utf8' })) as PageCost;
}

/**
 * Drops the page cache (and the kernel's cached names and inodes), once what was written is on
 * storage (a page still to be written is not dropped): the next read of a store is from storage.
 */
function dropPageCache(): void {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
  } catch (error) {
    console.error(`bench: --from-disk drops the page cache, which needs root on Linux (${(error as Error).message})`);
    process.exit(2);
  }
}
const keepDir = values.dir;
const workDir = keepDir ?? mkdtempSync(join(tmpdir(), 'rec-bench-'));
const outFile = values.out ?? join(keepDir ?? tmpdir(), `rec-bench-${scale}.json`);
const log = (message: string) => process.stderr.write(`· ${message}\n`);

const MAIN: RecordShape = scale === '1m' ? { sessions: 5_000, entriesPerSession: 200, seed: 1 } : { sessions: 1_000, entriesPerSession: 100, seed: 1 };
const WIDE: RecordShape = { sessions: 9_999, entriesPerSession: 5, bigSessions: 1, bigSessionEntries: 100_000, seed: 2 };
// The targets the bench judges by: ready beside the plain scan, the first answer, peak RSS.
const READY_RATIO = scale === '1m' ? 1.5 : 1.3;
const FIRST_ANSWER_MS = 500;
const RSS_LIMIT_MB = scale === '1m' ? 1024 : 300;

/** A generated record, reused from --dir when it was generated with the same shape. */
function prepareRecord(name: string, shape: RecordShape): { dir: string; record: GeneratedRecord } {
  const dir = join(workDir, name);
  const manifest = join(workDir, `${name}.json`);
  if (existsSync(manifest)) {
    const saved = JSON.parse(readFileSync(manifest, 'utf8')) as { shape: RecordShape; record: GeneratedRecord };
    if (JSON.stringify(saved.shape) === JSON.stringify(shape)) {
      const left = removeLeftovers(dir, saved.record);
      if (left > 0) log(`removed ${left} files an earlier run wrote and left behind`);
      log(`reusing ${dir} (${saved.record.files.toLocaleString('en-US')} files)`);
      return { dir, record: saved.record };
    }
  }
  rmSync(dir, { recursive: true, force: true });
  log(`generating ${dir}: ${shape.sessions} sessions × ${shape.entriesPerSession}${shape.bigSessions ? ` + ${shape.bigSessions} × ${shape.bigSessionEntries}` : ''}`);
  const started = performance.now();
  const record = generateRecord(dir, shape);
  log(`  ${record.files.toLocaleString('en-US')} files, ${Math.round(record.bytes / 1e6)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  writeFileSync(manifest, JSON.stringify({ shape, record }));
  return { dir, record };
}

/** Folders and files the bench itself added to a record (probes, live writes, bursts). */
const added: string[] = [];
function removeAdded(): void {
  for (const path of added.splice(0)) rmSync(path, { recursive: true, force: true });
}

const rows: Row[] = [];
const results: Record<string, unknown> = {
  scale,
  node: process.version,
  cpus: `${availableParallelism()} × ${cpus()[0]?.model ?? 'unknown'}`,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  command: bin,
  startedAt: new Date().toISOString(),
};
const mb = (bytes: number) => bytes / 2 ** 20;
const ratio = (value: number, baseline: number) => value / baseline;

async function main(): Promise<void> {
  const startsMain = phases.has('cold') || phases.has('idle') || phases.has('live') || phases.has('burst') || phases.has('liveview') || phases.has('search');
  const mainRecord = startsMain || phases.has('early') || phases.has('liveearly') || phases.has('profile') || phases.has('layers') || phases.has('stores') ? prepareRecord(`main-${scale}`, MAIN) : null;
  const wideRecord = phases.has('api') || phases.has('export') || phases.has('session') || phases.has('browser') ? prepareRecord('wide', WIDE) : null;
  results['records'] = {
    main: mainRecord && { dir: mainRecord.dir, ...summary(mainRecord.record) },
    wide: wideRecord && { dir: wideRecord.dir, ...summary(wideRecord.record) },
  };

  // What a page's first touch costs on this machine, once a run, in a fresh process: the price of
  // the fresh pages each phase's process touched beyond its plain read's.
  const pageCost = phases.has('cold') || phases.has('spex') || phases.has('sac') ? measurePageCost() : null;
  if (pageCost !== null) {
    results['pageCost'] = pageCost;
    rows.push({ measure: 'fresh memory: a page\'s first touch', value: pageCost.usPerPage, unit: 'µs', note: `a new ${pageCost.mb} MB buffer filled in a fresh process: ${pageCost.faults.toLocaleString('en-US')} page faults, ${Math.round(pageCost.firstMs)} ms, and ${pageCost.againMs.toFixed(1)} ms filled again (median of three)` });
  }

  // spex's and sac's sources run in processes of their own, with the Node options the command runs with.
  const storePhase: StorePhaseOptions = { dropPageCache: fromDisk ? dropPageCache : null, pageCost, nodeOptions: readNodeOptions(bin) };

  let dashboard: DashboardProcess | null = null;
  try {
    if (mainRecord !== null && startsMain) {
      const { dir, record } = mainRecord;
      const label = `${scale === '1m' ? '1M' : '100k'}${fromDisk ? ' from disk' : ''}`;
      // The generator left the files in the page cache; a first scan makes sure all are (from
      // disk, each plain scan and each start begins with the cache dropped instead).
      if (!fromDisk) await runBaselineScan(dir);
      const pairs: { baseline: BaselineScan; cold: ColdStart }[] = [];
      const coldRuns = phases.has('cold') ? repeat : 1;
      for (let i = 0; i < coldRuns; i++) {
        if (fromDisk) dropPageCache();
        const baseline = await runBaselineScan(dir);
        if (fromDisk) dropPageCache();
        log(`baseline scan ${i + 1}: ${baseline.files} files in ${Math.round(baseline.wallMs)} ms (${Math.round(baseline.ms)} ms scanning)`);
        const started = await measureColdStart(bin, dir, 'bench-probe');
        const cold = started.result;
        log(`cold start ${i + 1}: address at ${Math.round(cold.urlMs)} ms, answers at ${Math.round(cold.firstAnswerMs)} ms (main thread CPU ${cold.mainCpuMsToFirstAnswer} ms), ready at ${Math.round(cold.readyMs)} ms (${cold.readyFiles} files; CPU ${Math.round(cold.cpuMsToReady)} ms, main thread ${Math.round(cold.mainCpuMsToReady)} ms, scan threads ${cold.threadsCpuMsToReady.scan.join(' + ')} ms, V8's helpers ${cold.threadsCpuMsToReady.v8} ms, others ${cold.threadsCpuMsToReady.other} ms), live at ${Math.round(cold.liveMs)} ms, peak RSS ${Math.round(mb(cold.peakRssBytes))} MB`);
        pairs.push({ baseline, cold });
        if (i < coldRuns - 1) {
          await started.dashboard.stop();
          removeProbe(dir, 'bench-probe');
        } else {
          dashboard = started.dashboard;
          added.push(join(dir, 'bench-probe'));
        }
      }
      const best = pairs.map((p) => ratio(p.cold.readyMs, p.baseline.wallMs));
      const last = pairs.at(-1)!;
      const listing = await runBaselineScan(dir, true);
      results['coldStart'] = { pairs, listing };
      if (phases.has('cold')) {
        const expected = last.baseline.files;
        rows.push(
          { measure: `cold ${label}: API answers (from spawn)`, value: median(pairs.map((p) => p.cold.firstAnswerMs)), unit: 'ms', target: `≤ ${FIRST_ANSWER_MS} ms, with progress`, met: pairs.every((p) => p.cold.firstAnswerMs <= FIRST_ANSWER_MS), note: `first answer: indexing ${last.cold.firstAnswer.state}, ${last.cold.firstAnswer.files} files, ${last.cold.firstAnswer.sessions} sessions so far` },
          { measure: `cold ${label}: main thread's CPU to the first answer`, value: median(pairs.map((p) => p.cold.mainCpuMsToFirstAnswer)), unit: 'ms', note: `address printed at ${Math.round(median(pairs.map((p) => p.cold.urlMs)))} ms (median); the work the first answer waits for, whatever the load (the scan threads' not counted)` },
          { measure: `cold ${label}: indexed (ready)`, value: median(pairs.map((p) => p.cold.readyMs)), unit: 'ms', baseline: { value: median(pairs.map((p) => p.baseline.wallMs)), what: 'plain scan' }, ratio: median(best), target: `≤ ${READY_RATIO}×`, met: median(best) <= READY_RATIO },
          { measure: `cold ${label}: CPU to ready, every thread`, value: median(pairs.map((p) => p.cold.cpuMsToReady)), unit: 'ms', baseline: { value: median(pairs.map((p) => p.baseline.cpuMs)), what: 'plain scan CPU' }, ratio: median(pairs.map((p) => ratio(p.cold.cpuMsToReady, p.baseline.cpuMs))), note: 'the work done, whatever the machine\'s load: start-up, reading, concluding, watching' },
          {
            measure: `cold ${label}: read from storage to ready`,
            value: mb(median(pairs.map((p) => p.cold.diskReadBytesToReady ?? 0))),
            unit: 'MB',
            baseline: { value: mb(median(pairs.map((p) => p.baseline.diskReadBytes ?? 0))), what: 'plain scan' },
            note: `what each found outside the page cache (/proc/<pid>/io's read_bytes), per run: ${pairs.map((p) => `${Math.round(mb(p.cold.diskReadBytesToReady ?? 0))} against ${Math.round(mb(p.baseline.diskReadBytes ?? 0))}`).join(', ')} MB`,
          },
          ...[freshPagesRow(`cold ${label}: fresh pages to ready`, pairs.map((p) => p.cold.minorFaultsToReady), pairs.map((p) => p.baseline.minorFaults), 'plain scan', pageCost)].filter((row) => row !== null),
          { measure: `cold ${label}: main thread's CPU to ready`, value: median(pairs.map((p) => p.cold.mainCpuMsToReady)), unit: 'ms', baseline: { value: median(pairs.map((p) => p.baseline.cpuMs)), what: 'plain scan CPU' }, ratio: median(pairs.map((p) => ratio(p.cold.mainCpuMsToReady, p.baseline.cpuMs))), note: 'start-up, answering, and concluding what the scan threads read: the share of the work the scan threads cannot take' },
          { measure: `cold ${label}: scan threads' CPU to ready`, value: median(pairs.map((p) => sum(p.cold.threadsCpuMsToReady.scan))), unit: 'ms', baseline: { value: median(pairs.map((p) => p.baseline.cpuMs)), what: 'plain scan CPU' }, ratio: median(pairs.map((p) => ratio(sum(p.cold.threadsCpuMsToReady.scan), p.baseline.cpuMs))), note: `each: ${last.cold.threadsCpuMsToReady.scan.join(', ')} ms; V8's helper threads (the collector's, the compiler's) ${median(pairs.map((p) => p.cold.threadsCpuMsToReady.v8))} ms (median)` },
          { measure: `cold ${label}: watching (new file seen)`, value: median(pairs.map((p) => p.cold.liveMs)), unit: 'ms', baseline: { value: median(pairs.map((p) => p.baseline.wallMs)), what: 'plain scan' }, ratio: median(pairs.map((p) => ratio(p.cold.liveMs, p.baseline.wallMs))) },
          { measure: `cold ${label}: files indexed`, value: last.cold.readyFiles, unit: 'files', baseline: { value: expected, what: 'listed' }, target: 'none missed', met: pairs.every((p) => p.cold.readyFiles === p.baseline.files) },
          { measure: `cold ${label}: peak RSS (ready)`, value: mb(last.cold.peakRssAtReadyBytes), unit: 'MB', baseline: { value: mb(last.baseline.maxRssBytes), what: 'plain scan' } },
          { measure: `cold ${label}: peak RSS (watching)`, value: mb(Math.max(...pairs.map((p) => p.cold.peakRssBytes))), unit: 'MB', target: `≤ ${RSS_LIMIT_MB} MB`, met: pairs.every((p) => mb(p.cold.peakRssBytes) <= RSS_LIMIT_MB) },
          { measure: `cold ${label}: watcher errors`, value: last.cold.watcherErrors.length, unit: 'count', target: 'none', met: pairs.every((p) => p.cold.watcherErrors.length === 0), ...(last.cold.watcherErrors.length > 0 ? { note: last.cold.watcherErrors.slice(0, 3).join(' | ') } : {}) },
        );
      }

      if (phases.has('idle')) {
        log(`idle: sampling CPU for ${idleSeconds} s`);
        const idle = await measureIdle(dashboard!.pid, idleSeconds);
        results['idle'] = idle;
        const reconciles = idle.bursts.filter((b) => b.cpuMs > 20);
        rows.push(
          { measure: 'idle: CPU outside reconciles', value: (idle.steadyCpuMs / (idleSeconds * 1000)) * 100, unit: '%', target: '0 % (no polling)', met: idle.steadyCpuMs <= idleSeconds * 2, note: `${idle.steadyCpuMs} ms of CPU in ${idleSeconds} s outside bursts; ${idle.bursts.length} burst(s)` },
          {
            measure: `idle: a periodic reconcile (${label})`,
            value: reconciles.length === 0 ? Number.NaN : Math.max(...reconciles.map((b) => b.cpuMs)),
            unit: 'ms',
            baseline: { value: listing.wallMs, what: 'plain listing' },
            ...(reconciles.length > 0 ? { ratio: ratio(Math.max(...reconciles.map((b) => b.cpuMs)), listing.wallMs) } : {}),
            note: reconciles.length === 0 ? 'no reconcile fell in the window' : `CPU per reconcile; ${reconciles.length} in ${idleSeconds} s (every 30 s, or 50× its CPU time up to 60 s)`,
          },
        );
      }

      let watcher = null;
      if (phases.has('live') || phases.has('burst')) {
        watcher = await startBareWatcher(dir);
        log(`bare chokidar ready after ${Math.round(watcher.readyMs)} ms`);
        results['bareWatcherReadyMs'] = watcher.readyMs;
      }
      if (phases.has('live')) {
        const sessionId = record.sessionIds[1]!;
        const tail = record.tails[sessionId]!;
        const target: LiveTarget = { sessionId, ...tail };
        log(`live: ${writes} writes into ${sessionId} (${tail.files} entries)`);
        const series = await measureLive(dashboard!.url, dir, watcher!, target, { writes, fetchList: true, pageLimit: 100 });
        added.push(...series.written);
        results['live'] = { noticeMs: spread(series.noticeMs), watcherMs: spread(series.watcherMs), pageMs: spread(series.pageMs), listMs: spread(series.listMs), missed: series.missed };
        rows.push(...liveRows(`live ${label}`, series));
      }
      if (phases.has('burst')) {
        log('burst: 10,000 entries from a writer process');
        const burst = await measureBurst(dashboard!.url, dir, watcher!, 'bench-burst', 10_000, 35_000);
        added.push(join(dir, 'bench-burst'));
        results['burst'] = burst;
        rows.push(
          {
            measure: 'burst 10,000: all shown after the last write',
            value: burst.shownAfterMs ?? Number.NaN,
            unit: 'ms',
            ...(burst.watcherLastAfterMs !== null ? { baseline: { value: burst.watcherLastAfterMs, what: 'chokidar last add' } } : {}),
            target: '≤ 5 s',
            met: burst.shownAfterMs !== null && burst.shownAfterMs <= 5_000,
            note: `written in ${Math.round(burst.writeMs)} ms; shown at 5 s: ${burst.shownAt5s}, at the end (${Math.round(burst.waitedMs / 1000)} s): ${burst.shownAtEnd}; bare chokidar saw ${burst.watcherAdds} adds`,
          },
          { measure: 'burst 10,000: lost', value: burst.count - burst.shownAt5s, unit: 'count', baseline: { value: burst.count - burst.watcherAdds, what: 'chokidar missed' }, target: 'none (at 5 s)', met: burst.shownAt5s === burst.count },
        );
      }
      if (phases.has('liveview')) {
        const sessionId = record.sessionIds[2]!;
        const tail = record.tails[sessionId]!;
        const target: LiveTarget = { sessionId, ...tail };
        log(`live view: ${writes} writes into ${sessionId} with the live view open, then a burst of 10,000`);
        try {
          const view = await measureLiveView(dashboard!.url, dir, target, writes, 10_000, added);
          const notice = spread(view.noticeMs);
          const row = spread(view.rowMs);
          results['liveView'] = { ...view, noticeMs: notice, rowMs: row };
          rows.push(
            { measure: `live view ${label}: written → item notice (p95)`, value: notice.p95, unit: 'ms', target: '≤ 50 ms', met: notice.p95 <= 50 && view.missedNotices === 0, note: `p50 ${notice.p50.toFixed(1)} ms, max ${notice.max.toFixed(1)} ms over ${notice.n} writes; missed ${view.missedNotices}` },
            { measure: `live view ${label}: written → row on screen (p95)`, value: row.p95, unit: 'ms', baseline: { value: notice.p95, what: 'item notice' }, ratio: ratio(row.p95, notice.p95), target: '≤ 250 ms', met: row.p95 <= 250 && view.missedRows === 0 && view.pageErrors.length === 0, note: `p50 ${row.p50.toFixed(1)} ms, max ${row.max.toFixed(1)} ms over ${row.n} writes; missed ${view.missedRows}; JS heap ${Math.round(mb(view.jsHeapUsedBytes))} MB; page errors ${view.pageErrors.length}` },
            { measure: `live view ${label}: burst of ${view.burst.count.toLocaleString('en-US')}, all listed after the last write`, value: view.burst.listedAfterMs ?? Number.NaN, unit: 'ms', target: 'all, within 5 s', met: view.burst.listedAfterMs !== null && view.burst.listedAfterMs <= 5_000, note: `written in ${Math.round(view.burst.writeMs)} ms; listed ${view.burst.listed.toLocaleString('en-US')}` },
          );
        } catch (error) {
          rows.push({ measure: `live view ${label}: written → row on screen (p95)`, value: Number.NaN, unit: 'ms', target: '≤ 250 ms', met: false, note: `failed: ${(error as Error).message.split('\n')[0]}` });
        }
      }
      if (phases.has('search')) {
        log(`search: other requests while searches run over ${label}`);
        const sessionIds = record.sessionIds;
        const search = await measureSearch(dashboard!.url, dashboard!.pid, sessionIds, 60);
        results['search'] = search;
        rows.push(
          { measure: `search ${label}: others, no search running (p95)`, value: search.quiet.p95, unit: 'ms', target: '≤ 50 ms', met: search.quiet.p95 <= 50, note: `p50 ${search.quiet.p50.toFixed(1)} ms; /api/sessions and a first page in turn` },
          ...searchRows(`search ${label}`, 'a pathological regex (a+)+$', search.pathological, search.quiet.p95),
          ...searchRows(`search ${label}`, 'a text found nowhere', search.noHit, search.quiet.p95),
        );
      }
      if (dashboard !== null) {
        results['mainPeakRssBytes'] = readPeakRss(dashboard.pid);
        results['mainStderr'] = dashboard.stderr;
        await dashboard.stop();
        dashboard = null;
      }
      await watcher?.stop();
      removeAdded();
    }

    if (mainRecord !== null && phases.has('early')) {
      const { dir, record } = mainRecord;
      const label = scale === '1m' ? '1M' : '100k';
      await runBaselineScan(dir);
      log(`early: an entry every 100 ms for 5 s from the first answer of a fresh start`);
      const early = await measureEarly(bin, dir, record, { windowMs: 5_000, gapMs: 100, lateMs: 120_000 });
      added.push(...early.written);
      removeAdded();
      // What chokidar alone offers at that moment: nothing until its walk of the record ends.
      const bare = await startBareWatcher(dir);
      await bare.stop();
      const told = early.writes.flatMap((w) => (w.noticeMs === null ? [] : [w.noticeMs]));
      const all = spread(told);
      const inFolders = spread(early.writes.filter((w) => w.newFolder && w.noticeMs !== null).map((w) => w.noticeMs!));
      const duringScan = early.writes.filter((w) => w.indexing === 'scanning').length;
      const missed = early.writes.length - told.length;
      results['early'] = { ...early, written: undefined, noticeMs: all, newFolderNoticeMs: inFolders, bareWatcherReadyMs: bare.readyMs };
      rows.push({
        measure: `early ${label}: written → notice, first 5 s (p95)`,
        value: all.p95,
        unit: 'ms',
        baseline: { value: bare.readyMs, what: 'chokidar walk' },
        target: '≤ 50 ms',
        met: all.p95 <= 50 && missed === 0,
        note: `p50 ${all.p50.toFixed(1)} ms, max ${all.max.toFixed(1)} ms over ${all.n} of ${early.writes.length} writes (${duringScan} while the first scan ran; new folders p95 ${inFolders.p95.toFixed(1)} ms); never told ${missed}; API first answered at ${Math.round(early.firstAnswerMs)} ms (${early.firstAnswerIndexing}), ready at ${early.readyMs === null ? '—' : `${Math.round(early.readyMs)} ms`}; a bare chokidar sees no write before its walk ends`,
      });
    }

    if (mainRecord !== null && phases.has('liveearly')) {
      const { dir, record } = mainRecord;
      const label = scale === '1m' ? '1M' : '100k';
      await runBaselineScan(dir);
      log('live view while indexing: /live opened at the first answer, an entry every 50 ms for 5 s from when it is live');
      try {
        const early = await measureLiveEarly(bin, dir, record, { windowMs: 5_000, gapMs: 50 });
        added.push(...early.written);
        removeAdded();
        const onScreen = (writes: typeof early.writes) => writes.flatMap((w) => (w.rowMs === null ? [] : [w.rowMs]));
        const scanning = early.writes.filter((w) => w.indexing === 'scanning');
        const during = spread(onScreen(scanning));
        const serverPart = spread(scanning.flatMap((w) => (w.noticeMs === null ? [] : [w.noticeMs])));
        const all = spread(onScreen(early.writes));
        const missed = early.writes.filter((w) => w.rowMs === null).length;
        results['liveEarly'] = { ...early, written: undefined, duringScanMs: during, allMs: all };
        rows.push(
          {
            measure: `live view ${label} while indexing: written → row on screen (p95)`,
            value: during.p95,
            unit: 'ms',
            target: '≤ 150 ms',
            met: scanning.length > 0 && during.p95 <= 150 && missed === 0 && early.pageErrors.length === 0,
            note: `p50 ${during.p50.toFixed(1)} ms, max ${during.max.toFixed(1)} ms over the ${scanning.length} writes made while the first scan ran; API answered at ${Math.round(early.firstAnswerMs)} ms, the view live ${Math.round(early.liveAfterMs)} ms later, ready at ${early.readyMs === null ? '—' : `${Math.round(early.readyMs)} ms`}; missed ${missed}; page errors ${early.pageErrors.length}`,
          },
          { measure: `           every write of the first 5 s (p95)`, value: all.p95, unit: 'ms', target: '≤ 150 ms', met: all.p95 <= 150 && missed === 0, note: `p50 ${all.p50.toFixed(1)} ms, max ${all.max.toFixed(1)} ms over ${all.n} of ${early.writes.length} writes` },
          {
            measure: `           the server's part: written → item notice (p95)`,
            value: serverPart.p95,
            unit: 'ms',
            target: '',
            met: null,
            note: `p50 ${serverPart.p50.toFixed(1)} ms, max ${serverPart.max.toFixed(1)} ms at the bench's own client of the event stream, over the ${serverPart.n} writes made while the first scan ran`,
          },
          {
            measure: `           the page's long tasks (over 50 ms)`,
            value: early.longTasks.length,
            unit: 'count',
            target: '',
            met: null,
            note: `${Math.round(early.longTasks.reduce((sum, task) => sum + task.ms, 0))} ms in all, the longest ${Math.round(Math.max(0, ...early.longTasks.map((task) => task.ms)))} ms, from the first write to the last row`,
          },
          {
            measure: `           the page's main thread: CPU over the 5 s`,
            value: early.page.threadMs,
            unit: 'ms',
            target: '',
            met: null,
            note: `${(early.page.threadMs / Math.max(1, early.writes.length)).toFixed(1)} ms a write; its tasks took ${Math.round(early.page.taskMs)} ms: scripts ${Math.round(early.page.scriptMs)}, style ${Math.round(early.page.styleMs)}, layout ${Math.round(early.page.layoutMs)} ms`,
          },
        );
      } catch (error) {
        rows.push({ measure: `live view ${label} while indexing: written → row on screen (p95)`, value: Number.NaN, unit: 'ms', target: '≤ 150 ms', met: false, note: `failed: ${(error as Error).message.split('\n')[0]}` });
      }
    }

    if (mainRecord !== null && phases.has('profile')) {
      const label = scale === '1m' ? '1M' : '100k';
      await runBaselineScan(mainRecord.dir);
      log(`profile: the first scan of the ${label} record with the CPU profiler on every thread`);
      const profiled = await profileFirstScan(bin, mainRecord.dir);
      results['profile'] = profiled;
      for (const line of describeProfile(profiled.threads)) log(line);
      const busy = profiled.threads.reduce((n, thread) => n + thread.busyMs, 0);
      rows.push({ measure: `profile ${label}: CPU of every thread to ready`, value: busy, unit: 'ms', note: `ready at ${Math.round(profiled.readyMs)} ms under the profiler; ${profiled.threads.map((t) => `${t.thread} ${Math.round(t.busyMs)} ms`).join(', ')}` });
    }

    if (mainRecord !== null && phases.has('layers')) {
      const label = scale === '1m' ? '1M' : '100k';
      await runBaselineScan(mainRecord.dir);
      log(`layers: the ${label} record read on one thread, a scan thread's steps one more at a time, ${repeat} times in turn`);
      const runs = new Map<string, LayerRun[]>(SCAN_LAYERS.map((layer) => [layer, []]));
      for (let i = 0; i < repeat; i++) {
        for (const layer of SCAN_LAYERS) {
          const layerRun = await runScanLayer(mainRecord.dir, layer);
          runs.get(layer)!.push(layerRun);
          log(`  ${layer}: ${Math.round(layerRun.cpuMs)} ms CPU (${Math.round(layerRun.systemMs)} ms in the kernel), ${layerRun.files} files`);
        }
      }
      const plain = median(runs.get('plain')!.map((layerRun) => layerRun.cpuMs));
      for (const layer of SCAN_LAYERS.slice(1)) {
        const cpu = runs.get(layer)!.map((layerRun) => layerRun.cpuMs);
        rows.push({ measure: `layers ${label}: up to ${layer}, CPU of one thread`, value: median(cpu), unit: 'ms', baseline: { value: plain, what: 'plain scan CPU' }, ratio: median(cpu) / plain, note: `${cpu.map((ms) => Math.round(ms)).join(', ')} ms` });
      }
      const steps = await runScanSteps(mainRecord.dir);
      results['layers'] = { ...Object.fromEntries(runs), steps };
      // A step's share of the plain scan: its µs a file beside the plain scan's CPU a file, file calls and all.
      const plainPerFile = (plain * 1000) / runs.get('plain')![0]!.files;
      for (const step of SCAN_STEPS) {
        const us = steps.usPerFile[step];
        rows.push({ measure: `steps ${label}: ${step}, in memory, CPU a file`, value: us, unit: 'µs', baseline: { value: plainPerFile, what: 'plain scan CPU a file' }, ratio: us / plainPerFile, note: `least of ${steps.rounds} rounds over ${steps.files} entries` });
      }
    }

    if (phases.has('search')) {
      log('large entries: 3 × 60 MB in a small record, their page asked for by 3 clients at once');
      const large = await measureLargeEntries(bin, join(workDir, 'large'), { entries: 3, entryBytes: 60 * 2 ** 20, samples: 60 });
      results['largeEntries'] = large;
      const { pageMs, fileMs, quiet, others, rssBeforeBytes, peakRssBytes, idleRss } = large;
      const idle = idleRss.at(-1)!;
      rows.push(
        { measure: 'large entries: a page of 3 × 60 MB, 3 clients at once', value: Math.max(...pageMs), unit: 'ms', note: `each: ${pageMs.map((ms) => Math.round(ms)).join(', ')} ms; then one entry whole from the file endpoint: ${Math.round(fileMs)} ms` },
        { measure: '           others meanwhile (p95)', value: others.p95, unit: 'ms', baseline: { value: quiet.p95, what: 'nothing else' }, ratio: ratio(others.p95, quiet.p95), target: '≤ 50 ms', met: others.p95 <= 50, note: `p50 ${others.p50.toFixed(1)} ms, max ${others.max.toFixed(1)} ms over ${others.n}` },
        { measure: '           peak RSS while read', value: mb(peakRssBytes), unit: 'MB', baseline: { value: mb(rssBeforeBytes), what: 'before' } },
        { measure: `           RSS idle ${idle.afterMs / 1000} s after`, value: mb(idle.bytes), unit: 'MB', baseline: { value: mb(rssBeforeBytes), what: 'before' }, target: '≤ 400 MB', met: mb(idle.bytes) <= 400, note: idleRss.map((sample) => `${Math.round(mb(sample.bytes))} MB at ${sample.afterMs / 1000} s`).join(', ') },
      );
    }

    if (wideRecord !== null) {
      const { dir, record } = wideRecord;
      const baseline = await runBaselineScan(dir);
      const started = await measureColdStart(bin, dir, 'bench-probe');
      added.push(join(dir, 'bench-probe'));
      dashboard = started.dashboard;
      log(`wide record: ready at ${Math.round(started.result.readyMs)} ms (baseline ${Math.round(baseline.wallMs)} ms)`);
      results['wideColdStart'] = { baseline, cold: started.result };
      const bigSessionId = record.bigSessionIds[0] ?? null;
      if (phases.has('api')) {
        log('api: timing /api/sessions and session pages');
        const api = await measureApi(dashboard.url, dir, record.sessionIds.slice(0, -1), bigSessionId, 60);
        results['api'] = api;
        rows.push(
          { measure: `api: /api/sessions at ${api.sessions.toLocaleString('en-US')} sessions (p95)`, value: api.list.p95, unit: 'ms', baseline: { value: api.trivial.p95, what: 'a 404' }, ratio: ratio(api.list.p95, api.trivial.p95), target: '≤ 50 ms', met: api.list.p95 <= 50, note: `p50 ${api.list.p50.toFixed(1)} ms, ${Math.round(api.list.bytes / 1024)} KB` },
          { measure: 'api: a session first page (p95)', value: api.firstPage.p95, unit: 'ms', baseline: { value: api.trivial.p95, what: 'a 404' }, ratio: ratio(api.firstPage.p95, api.trivial.p95), target: '≤ 20 ms', met: api.firstPage.p95 <= 20 },
        );
        if (api.bigFirstPage !== null && api.bigLastPage !== null && api.bigFirstPlain !== null && api.bigLastPlain !== null) {
          const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;
          rows.push(
            { measure: `api: first page of a ${api.bigTotal.toLocaleString('en-US')}-item session (p95)`, value: api.bigFirstPage.p95, unit: 'ms', baseline: { value: api.bigFirstPlain.p95, what: 'plain read' }, ratio: ratio(api.bigFirstPage.p95, api.bigFirstPlain.p95), target: '≤ 20 ms', met: api.bigFirstPage.p95 <= 20, note: `p50 ${api.bigFirstPage.p50.toFixed(1)} ms; its files hold ${kb(api.bigFirstBytes)}, read and parsed plainly at p50 ${api.bigFirstPlain.p50.toFixed(1)} ms` },
            { measure: '           its last page (p95)', value: api.bigLastPage.p95, unit: 'ms', baseline: { value: api.bigLastPlain.p95, what: 'plain read' }, ratio: ratio(api.bigLastPage.p95, api.bigLastPlain.p95), target: '≤ 20 ms', met: api.bigLastPage.p95 <= 20, note: `p50 ${api.bigLastPage.p50.toFixed(1)} ms; its files hold ${kb(api.bigLastBytes)}, read and parsed plainly at p50 ${api.bigLastPlain.p50.toFixed(1)} ms` },
          );
          if (api.bigOpen !== null) {
            const { first, last, warm } = api.bigOpen;
            rows.push({ measure: '           its first page, first asked', value: first, unit: 'ms', note: `not in the p95s above: its last page first asked ${last.toFixed(1)} ms (a reader thread started), then ${warm.length} asks to warm: ${warm.map((ms) => ms.toFixed(0)).join(', ')} ms` });
          }
        }
        if (bigSessionId !== null) {
          const watcher = await startBareWatcher(dir);
          const tail = record.tails[bigSessionId]!;
          const target: LiveTarget = { sessionId: bigSessionId, ...tail };
          log(`live: ${writes} writes into the ${tail.files}-entry session`);
          const series = await measureLive(dashboard.url, dir, watcher, target, { writes, fetchList: true, pageLimit: 100 });
          added.push(...series.written);
          results['liveBig'] = { noticeMs: spread(series.noticeMs), watcherMs: spread(series.watcherMs), pageMs: spread(series.pageMs), listMs: spread(series.listMs), missed: series.missed };
          rows.push(...liveRows(`live, ${tail.files.toLocaleString('en-US')}-entry session`, series, `/api/sessions (${api.sessions.toLocaleString('en-US')})`));
          await watcher.stop();
        }
      }
      if (phases.has('export') && bigSessionId !== null) {
        log(`export: the ${record.tails[bigSessionId]!.files}-entry session as NDJSON`);
        const exported = await measureExport(dashboard.url, dashboard.pid, dir, bigSessionId);
        results['export'] = exported;
        const rate = mb(exported.bytes) / (exported.ms / 1000);
        const plainRate = mb(exported.plain.bytes) / (exported.plain.ms / 1000);
        const growth = mb(exported.peakRssBytes - exported.rssBeforeBytes);
        rows.push(
          { measure: `export: a ${(exported.lines - 1).toLocaleString('en-US')}-item session as NDJSON`, value: rate, unit: 'MB/s', baseline: { value: plainRate, what: 'plain read' }, ratio: ratio(rate, plainRate), target: '≥ 50 MB/s', met: rate >= 50, note: `${Math.round(mb(exported.bytes))} MB in ${Math.round(exported.ms)} ms; a plain read and escape of its files: ${Math.round(exported.plain.ms)} ms` },
          { measure: '           server RSS growth', value: growth, unit: 'MB', baseline: { value: mb(exported.rssBeforeBytes), what: 'RSS before' }, target: '≤ 50 MB', met: growth <= 50, note: `peak ${Math.round(mb(exported.peakRssBytes))} MB` },
          { measure: '           others meanwhile (p95)', value: exported.others.p95, unit: 'ms', target: '≤ 50 ms', met: exported.others.p95 <= 50, note: `p50 ${exported.others.p50.toFixed(1)} ms, max ${exported.others.max.toFixed(1)} ms over ${exported.others.n} (a 404)` },
        );
      }
      if (phases.has('session') && bigSessionId !== null) {
        log(`session: the page across the stores of the ${record.tails[bigSessionId]!.files}-entry session`);
        const times = await measureSessionPage(dashboard.url, bigSessionId, 30);
        results['sessionPage'] = times;
        rows.push({
          measure: `session page: a ${times.total.toLocaleString('en-US')}-entry record session (p95)`,
          value: times.page.p95,
          unit: 'ms',
          baseline: { value: times.ownPage.p95, what: 'its own page' },
          ratio: ratio(times.page.p95, times.ownPage.p95),
          note: `its newest ${times.items.toLocaleString('en-US')} items; p50 ${times.page.p50.toFixed(1)} ms, its record page of the same items p50 ${times.ownPage.p50.toFixed(1)} ms, over ${times.page.n}`,
        });
      }
      if (phases.has('browser') && bigSessionId !== null) {
        const watcher = await startBareWatcher(dir);
        const tail = record.tails[bigSessionId]!;
        const target: LiveTarget = { sessionId: bigSessionId, ...tail, nextSeq: tail.nextSeq + 10_000 };
        log(`browser: opening the ${tail.files}-entry session, scrolling, then ${writes} live writes`);
        let browser;
        try {
          browser = await measureBrowser(dashboard.url, dir, watcher, target, writes, added);
        } catch (error) {
          rows.push({ measure: `browser: open a ${tail.files.toLocaleString('en-US')}-entry session`, value: Number.NaN, unit: 'ms', target: '≤ 1 s', met: false, note: `failed: ${(error as Error).message.split('\n')[0]}` });
        } finally {
          await watcher.stop();
        }
        if (browser !== undefined) {
          const visible = spread(browser.visibleMs);
          const events = spread(browser.watcherMs);
          const longest = (tasks: number[]) => (tasks.length === 0 ? 0 : Math.max(...tasks));
          results['browser'] = { ...browser, visibleMs: visible, watcherMs: events };
          rows.push(
            { measure: `browser: open a ${tail.files.toLocaleString('en-US')}-entry session`, value: browser.openMs, unit: 'ms', target: '≤ 1 s', met: browser.openMs <= 1000, note: `long tasks while opening: ${browser.openLongTasksMs.map((t) => Math.round(t)).join(', ') || 'none'}` },
            {
              measure: 'browser: open the same session across the stores',
              value: browser.acrossOpenMs ?? Number.NaN,
              unit: 'ms',
              target: '≤ 1 s',
              met: browser.acrossOpenMs !== null && browser.acrossOpenMs <= 1000,
              note: `its newest 1,000 items; long tasks for 1.5 s from opening: ${browser.acrossLongTasksMs.map((t) => Math.round(t)).join(', ') || 'none'}`,
            },
            { measure: 'browser: longest task while scrolling', value: longest(browser.scrollLongTasksMs), unit: 'ms', target: 'none over 50 ms', met: longest(browser.scrollLongTasksMs) <= 50, note: `${browser.scrollLongTasksMs.length} long task(s); ${browser.scrolledRows} rows seen scrolling up with the wheel, then Home and End` },
            { measure: 'browser: written → row on screen (p95)', value: visible.p95, unit: 'ms', baseline: { value: events.p95, what: 'chokidar event' }, ratio: ratio(visible.p95, events.p95), target: '≤ 250 ms', met: visible.p95 <= 250 && browser.missed === 0, note: `p50 ${visible.p50.toFixed(1)} ms, max ${visible.max.toFixed(1)} ms over ${visible.n} writes, missed ${browser.missed}${describeMisses(browser.misses)}; stamped in the page at the frame the row comes into view` },
            { measure: 'browser: JS heap used (highest)', value: mb(browser.jsHeapUsedBytes), unit: 'MB', target: '≤ 200 MB', met: mb(browser.jsHeapUsedBytes) <= 200 },
            { measure: 'browser: errors in the page', value: browser.pageErrors.length, unit: 'count', target: 'none', met: browser.pageErrors.length === 0, ...(browser.pageErrors.length > 0 ? { note: browser.pageErrors[0]!.split('\n')[0]! } : {}) },
          );
        }
      }
      results['widePeakRssBytes'] = readPeakRss(dashboard.pid);
      rows.push({ measure: `wide record: peak RSS`, value: mb(readPeakRss(dashboard.pid) ?? 0), unit: 'MB', note: `${record.files.toLocaleString('en-US')} files in ${record.sessions.toLocaleString('en-US')} sessions` });
      await dashboard.stop();
      dashboard = null;
      removeAdded();
    }
    // A spex home of its own (1,000 sessions × 1,000 events), whatever the scale.
    if (phases.has('spex')) rows.push(...(await measureSpex(sourceModuleBeside(bin, 'spex'), workDir, log, storePhase)));
    // The map of who talks to whom, on a record of its own (200 sessions × 20 peers), in Chromium.
    if (phases.has('map')) rows.push(...(await measureMap(bin, workDir, log)));
    // spex and sac searches and exports under load: a store of each of its own.
    if (phases.has('heavy')) rows.push(...(await measureHeavyKinds(bin, workDir, log)));
    // 500 pages, items, searches and exports from 20 clients at once, on a 100k record of its own
    // (800 sessions × 100 entries and four of 5,000), kept by --dir for the next run.
    if (phases.has('mixed')) {
      const { dir, record } = prepareRecord('mixed-100k', MIXED_SHAPE);
      const mixed = await measureMixed(bin, dir, record, log);
      results['mixed'] = mixed.results;
      rows.push(...mixed.rows);
    }
    if (phases.has('sac')) {
      const sac = measureSac(sourceModuleBeside(bin, 'sac'), workDir, Math.min(repeat, 3), writes, log, storePhase);
      results['sac'] = sac.results;
      rows.push(...sac.rows);
    }
    // A search over each kind of store and over all three at once: the main record beside the
    // spex and sac phases' stores, read by one command.
    if (phases.has('stores') && mainRecord !== null) {
      const searches = await measureStoreSearches(bin, mainRecord.dir, workDir, log);
      results['stores'] = searches.results;
      rows.push(...searches.rows);
    }
  } finally {
    await dashboard?.stop();
    removeAdded();
    if (keepDir === undefined) rmSync(workDir, { recursive: true, force: true });
  }

  results['rows'] = rows;
  writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
  const title = `rec-dashboard bench · ${scale === '1m' ? '1M entries (5,000 sessions × 200)' : '100k entries (1,000 sessions × 100)'} · Node ${process.version} · ${availableParallelism()} cores`;
  console.log(`\n${title}\n\n${formatTable(rows)}\n\nFigures: ${outFile}`);
}

function liveRows(label: string, series: Awaited<ReturnType<typeof measureLive>>, list = '/api/sessions'): Row[] {
  const notice = spread(series.noticeMs);
  const watcher = spread(series.watcherMs);
  const page = spread(series.pageMs);
  const listed = spread(series.listMs);
  return [
    { measure: `${label}: written → notice (p95)`, value: notice.p95, unit: 'ms', baseline: { value: watcher.p95, what: 'chokidar event' }, ratio: ratio(notice.p95, watcher.p95), target: '≤ 50 ms', met: notice.p95 <= 50 && series.missed === 0, note: `p50 ${notice.p50.toFixed(1)} ms, max ${notice.max.toFixed(1)} ms over ${notice.n} writes; chokidar p50 ${watcher.p50.toFixed(1)} ms; missed ${series.missed}` },
    { measure: `${label}: written → page fetched (p95)`, value: page.p95, unit: 'ms', baseline: { value: watcher.p95, what: 'chokidar event' }, ratio: ratio(page.p95, watcher.p95), note: 'the server side of "visible in the browser": notice, then the page holding the entry' },
    { measure: `${label}: written → ${list} fetched (p95)`, value: listed.p95, unit: 'ms', baseline: { value: watcher.p95, what: 'chokidar event' }, ratio: ratio(listed.p95, watcher.p95) },
  ];
}

function searchRows(label: string, what: string, load: SearchLoad, quietP95: number): Row[] {
  const statuses = Object.entries(load.statuses).map(([status, n]) => `${n}× ${status}`).join(', ');
  return [
    { measure: `${label}: others while ${what} runs (p95)`, value: load.others.p95, unit: 'ms', baseline: { value: quietP95, what: 'no search' }, ratio: ratio(load.others.p95, quietP95), target: '≤ 50 ms', met: load.others.p95 <= 50, note: `p50 ${load.others.p50.toFixed(1)} ms, max ${load.others.max.toFixed(1)} ms over ${load.others.n}; peak RSS ${Math.round(mb(load.peakRssBytes))} MB` },
    { measure: `           the search itself (p50)`, value: load.searches.p50, unit: 'ms', note: `${SEARCHES_AT_ONCE} clients searching back to back: ${load.searches.n} searches (${statuses}), ${load.scanned.toLocaleString('en-US')} texts read, ${load.hits} hits each` },
  ];
}

function describeMisses(misses: BrowserResult['misses']): string {
  const first = misses[0];
  if (first === undefined) return '';
  const marker = first.marker === null ? 'no "new" marker' : `"${first.marker}" shown`;
  const where = first.fromBottomPx < 0 ? `no timeline on ${first.path}` : `${first.fromBottomPx} px from the bottom`;
  return ` (first at write ${first.write + 1}: ${first.inDom ? 'in the DOM' : 'not in the DOM'}, ${marker}, ${where})`;
}

function summary(record: GeneratedRecord) {
  const { sessionIds, bigSessionIds, tails, ...rest } = record;
  return rest;
}

await main();
