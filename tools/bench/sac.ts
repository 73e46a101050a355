import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StorePhaseOptions } from './dashboardProcess.ts';
import { freshPagesRow, storageNote, type Row } from './report.ts';
import { median, spread } from './stats.ts';

// The bench's sac phase: a store of 100 rooms × 20 seats × 500 entries (1M entries), indexed by
// the sac source in a fresh process started with the command's Node options, beside the plainest
// read-and-split of the same files in a fresh process of the same run; the list of every seat's
// summary; then new entries appended as sac appends them by a writer process of its own, each
// timed to the source's notice of its seat; and the indexing process's peak RSS. The source measured is the module named: the built one
// (dist/server/sac/sacSource.js) unless the bench runs the source.

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const SAC_SHAPE = { rooms: 100, seats: 20, entries: 500 };
/** The targets: indexed within this many times the plain read, at this peak RSS. */
const READ_RATIO = 1.3;
const RSS_LIMIT_MB = 250;

function runStep<T>(script: string, args: string[], nodeOptions: readonly string[] = []): T {
  const out = execFileSync(process.execPath, [...nodeOptions, join(HERE, script), ...args], { encoding: 'utf8', maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').at(-1)!) as T;
}

type Baseline = { files: number; entries: number; ms: number; cpuMs: number; maxRssBytes: number; diskReadBytes: number | null; minorFaults: number | null };
type Indexed = { ms: number; cpuMs: number; listMs: number; seats: number; noticeMs: number[]; missed: number; maxRssBytes: number; diskReadBytes: number | null; minorFaults: number | null };

/** The phase's store (kept in `workDir`, made again only when its shape changed); its root. */
export function prepareSacStore(workDir: string, log: (message: string) => void): string {
  const root = join(workDir, 'sac-store');
  mkdirSync(root, { recursive: true });
  log(`sac: generating ${SAC_SHAPE.rooms} rooms × ${SAC_SHAPE.seats} seats × ${SAC_SHAPE.entries} entries`);
  runStep('sacStore.ts', ['generate', root, String(SAC_SHAPE.rooms), String(SAC_SHAPE.seats), String(SAC_SHAPE.entries)]);
  return root;
}

/** `sacSource` is the module measured: the built dist/server/sac/sacSource.js, or the source with --source. */
export function measureSac(sacSource: string, workDir: string, repeat: number, writes: number, log: (message: string) => void, { dropPageCache = null, pageCost = null, nodeOptions = [] }: StorePhaseOptions = {}): { rows: Row[]; results: unknown } {
  const root = prepareSacStore(workDir, log);
  const label = dropPageCache === null ? 'sac' : 'sac from disk';
  // Both from the page cache, or both from storage: the store, kept from an earlier run, may have
  // been evicted meanwhile, and the first to read it would pay for both (the read from storage says).
  if (dropPageCache === null) runStep<Baseline>('sacBaseline.mjs', [root]);
  const baselines: Baseline[] = [];
  const indexed: Indexed[] = [];
  for (let i = 0; i < repeat; i++) {
    log(`sac: baseline read-and-split ${i + 1}/${repeat}`);
    dropPageCache?.();
    baselines.push(runStep<Baseline>('sacBaseline.mjs', [root]));
    log(`sac: index ${i + 1}/${repeat}${i === repeat - 1 ? `, then ${writes} new entries` : ''}`);
    dropPageCache?.();
    indexed.push(runStep<Indexed>('sacProcess.mjs', [sacSource, root, String(i === repeat - 1 ? writes : 0)], nodeOptions));
  }
  const base = median(baselines.map((b) => b.ms));
  const ms = median(indexed.map((r) => r.ms));
  const last = indexed.at(-1)!;
  const notice = spread(last.noticeMs);
  const mb = (bytes: number) => bytes / (1024 * 1024);
  const rows: Row[] = [
    {
      measure: `${label}: index ${baselines[0]!.entries.toLocaleString('en-US')} entries in ${baselines[0]!.files.toLocaleString('en-US')} seat files`,
      value: ms,
      unit: 'ms',
      baseline: { value: base, what: 'read-and-split' },
      ratio: ms / base,
      target: `≤ ${READ_RATIO}× baseline`,
      met: ms <= READ_RATIO * base,
      note:
        `median of ${repeat}, each in a fresh process; CPU time ${Math.round(median(indexed.map((r) => r.cpuMs)))} ms, ` +
        `${(median(indexed.map((r) => r.cpuMs)) / median(baselines.map((b) => b.cpuMs))).toFixed(2)}× the baseline's ${Math.round(median(baselines.map((b) => b.cpuMs)))} ms; ` +
        `baseline peak RSS ${Math.round(mb(median(baselines.map((b) => b.maxRssBytes))))} MB; ` +
        `at the median, ${storageNote(median(indexed.map((r) => r.diskReadBytes ?? 0)), median(baselines.map((b) => b.diskReadBytes ?? 0)))}`,
    },
    ...[freshPagesRow(`${label}: fresh pages to indexed`, indexed.map((r) => r.minorFaults), baselines.map((b) => b.minorFaults), 'read-and-split', pageCost)].filter((row) => row !== null),
    {
      measure: `${label}: list of ${last.seats.toLocaleString('en-US')} seats, first time`,
      value: median(indexed.map((r) => r.listMs)),
      unit: 'ms',
      note: `median of ${repeat}; every seat's summary made once, from its rooms' indexes, after the first read`,
    },
    {
      measure: `${label}: new entry → notice (p95)`,
      value: notice.p95,
      unit: 'ms',
      target: '≤ 50 ms',
      met: notice.p95 <= 50 && last.missed === 0,
      note: `p50 ${notice.p50.toFixed(1)} ms, max ${notice.max.toFixed(1)} ms over ${notice.n} entries appended by a writer process, to the notice with the seat's summary; missed ${last.missed}`,
    },
    { measure: `${label}: peak RSS`, value: mb(last.maxRssBytes), unit: 'MB', target: `≤ ${RSS_LIMIT_MB} MB`, met: mb(last.maxRssBytes) <= RSS_LIMIT_MB, note: `the indexing process, after the list and the new entries; ${sacSource.endsWith('.ts') ? 'the source, run with type stripping' : 'the built module'}` },
  ];
  return { rows, results: { shape: SAC_SHAPE, baselines, indexed } };
}
