import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_AUTH, timedGet } from './dashboardProcess.ts';
import { readPeakRss, readRss } from './proc.ts';
import { spread, type Spread } from './stats.ts';

export type ExportTimes = {
  /** The NDJSON export of one session, streamed to the bench as fast as it takes it. */
  bytes: number;
  lines: number;
  ms: number;
  /** The baseline: reading the session's files and writing each as a JSON string, in the bench. */
  plain: { ms: number; bytes: number };
  rssBeforeBytes: number;
  /** The highest RSS while the export ran: the kernel's peak, reset before it where Linux allows. */
  peakRssBytes: number;
  /** Requests that touch no file (a 404), asked one after another while the export runs. */
  others: Spread;
};

/** readFileSync and JSON.stringify of each file's text: what the disk and the escaping alone cost. */
function exportPlainly(folder: string): { ms: number; bytes: number } {
  const started = performance.now();
  let bytes = 0;
  for (const name of readdirSync(folder)) {
    const line = JSON.stringify({ file: name, fileText: readFileSync(join(folder, name), 'utf8') });
    bytes += Buffer.byteLength(line) + 1;
  }
  return { ms: performance.now() - started, bytes };
}

/** Sets the kernel's peak RSS of `pid` to its current RSS (clear_refs 5, Linux 4.0+); false where it cannot. */
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export async function measureExport(url: string, pid: number, recordDir: string, sessionId: string): Promise<ExportTimes> {
  // Once to bring the files into the page cache, as the plain read finds them.
  const plain = exportPlainly(join(recordDir, sessionId));
  (globalThis as { gc?: () => void }).gc?.();
  const rssBeforeBytes = readRss(pid) ?? 0;
  const peakReset = resetPeakRss(pid);
  let sampledPeak = rssBeforeBytes;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, readRss(pid) ?? 0);
  }, 10);

  let running = true;
  const others: number[] = [];
  const asking = (async () => {
    while (running) {
      others.push((await timedGet(url, '/api/sessions/no-such-session')).ms);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();

  const started = performance.now();
  const response = await fetch(new URL(`/api/sessions/${encodeURIComponent(sessionId)}/export?format=ndjson`, url), { headers: BENCH_AUTH });
  if (!response.ok || response.body === null) throw new Error(`export: ${response.status} ${await response.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lines++;
  }
  const ms = performance.now() - started;
  running = false;
  await asking;
  clearInterval(sampler);
  const kernelPeak = peakReset ? (readPeakRss(pid) ?? 0) : 0;
  return { bytes, lines, ms, plain, rssBeforeBytes, peakRssBytes: Math.max(sampledPeak, kernelPeak), others: spread(others) };
}
