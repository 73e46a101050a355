import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readEntryFacts } from '../../shared/record/entryFacts.ts';
import { parseEntryName } from '../../shared/record/entryName.ts';
import { lookAtRead } from '../../server/record/lookAtFile.ts';
import { fingerprintEntry } from '../../server/record/entryFingerprint.ts';
import { readRecordFile } from '../../server/record/readRecordFile.ts';
import { createLooksPacker } from '../../server/record/scanLooks.ts';
import { listFolder, pathIn } from '../../server/watch/listFolder.ts';

// Where a scan thread's time goes, without a profiler to stretch it: the record read on one
// thread, in a fresh process a layer, each layer doing what the one before did and one step of
// the scan thread's more, in its own CPU time beside the plain scan's (readdir, readFileSync,
// JSON.parse) in the same run. Run as a script: `node scanLayers.ts <record> <layer>`.
//
// A layer's CPU time swings by ±20% and more from run to run on a loaded machine, more than a
// step that costs a microsecond or two a file: each step is also timed apart from the system's
// file calls, on entries read into memory beforehand, as the least of several rounds in one
// process (`node scanLayers.ts <record> steps`).

/** Each layer does what the one before it does, and one step more. */
export const SCAN_LAYERS = ['plain', 'list', 'open', 'facts', 'fingerprint', 'pack'] as const;
type Layer = (typeof SCAN_LAYERS)[number];

const run = promisify(execFile);
const HERE = fileURLToPath(import.meta.url);

export type LayerRun = { layer: Layer; files: number; cpuMs: number; systemMs: number };

/** Reads the record as one layer does, in a fresh process. */
export async function runScanLayer(recordDir: string, layer: Layer): Promise<LayerRun> {
  const { stdout } = await run(process.execPath, [HERE, recordDir, layer], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as LayerRun;
}

function readAsLayer(recordDir: string, layer: Layer): LayerRun {
  const scratch = Buffer.allocUnsafe(1 << 20);
  const packer = createLooksPacker(2_000);
  const started = process.cpuUsage();
  let files = 0;
  for (const session of readdirSync(recordDir, { withFileTypes: true })) {
    if (!session.isDirectory()) continue;
    const folder = `${recordDir}${sep}${session.name}`;
    if (layer === 'plain') {
      for (const name of readdirSync(folder)) {
        files++;
        try {
          JSON.parse(readFileSync(`${folder}${sep}${name}`, 'utf8'));
        } catch {
          // Counted all the same, as the plain scan counts it.
        }
      }
      continue;
    }
    for (const entry of listFolder(folder)) {
      files++;
      const entryName = entry.bytes === undefined ? parseEntryName(entry.name) : null;
      if (layer === 'list' || entryName === null) continue;
      const read = readRecordFile(pathIn(folder, entry), scratch);
      if (layer === 'open' || read.type !== 'bytes') continue;
      const reading = readEntryFacts(read.bytes);
      if (layer === 'facts' || reading.outcome === 'unchecked') continue;
      if (layer === 'fingerprint') {
        fingerprintEntry(read.bytes);
        continue;
      }
      const look = lookAtRead(read, () => reading);
      packer.add({ name: entry.name, entryName, seen: look.seen, mtimeMs: look.mtimeMs });
      if (packer.count >= 1_000) packer.take();
    }
  }
  const cpu = process.cpuUsage(started);
  return { layer, files, cpuMs: (cpu.user + cpu.system) / 1000, systemMs: cpu.system / 1000 };
}

/** The steps a scan thread takes of an entry's bytes once it has read them, and the plain scan's decode and parse. */
export const SCAN_STEPS = ['plain parse', 'name', 'facts', 'fingerprint', 'look and pack'] as const;
type Step = (typeof SCAN_STEPS)[number];

/** µs of CPU a file for each step, the least of `rounds` rounds over the same entries. */
export type StepTimes = { files: number; rounds: number; usPerFile: Record<Step, number> };

/** Runs the in-memory steps in a fresh process. */
export async function runScanSteps(recordDir: string): Promise<StepTimes> {
  const { stdout } = await run(process.execPath, [HERE, recordDir, 'steps'], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as StepTimes;
}

/** Up to this many entries are read into memory for the steps: enough to leave the caches. */
const STEP_FILES = 20_000;
const STEP_ROUNDS = 9;

function timeSteps(recordDir: string): StepTimes {
  const files: { name: string; bytes: Buffer }[] = [];
  for (const session of readdirSync(recordDir, { withFileTypes: true })) {
    if (!session.isDirectory() || files.length >= STEP_FILES) continue;
    for (const entry of listFolder(`${recordDir}${sep}${session.name}`)) {
      if (entry.isFile() && entry.bytes === undefined) files.push({ name: entry.name, bytes: readFileSync(`${recordDir}${sep}${session.name}${sep}${entry.name}`) });
    }
  }
  const scratch = Buffer.allocUnsafe(1 << 20);
  const packer = createLooksPacker(2_000);
  const steps: Record<Step, (name: string, bytes: Buffer) => unknown> = {
    'plain parse': (_name, bytes) => {
      try {
        return JSON.parse(bytes.toString('utf8'));
      } catch {
        return null;
      }
    },
    name: (name) => parseEntryName(name),
    facts: (_name, bytes) => readEntryFacts(bytes),
    fingerprint: (_name, bytes) => fingerprintEntry(bytes),
    // Every step a scan thread takes of a file once read, from its name to its packed look.
    'look and pack': (name, bytes) => {
      const entryName = parseEntryName(name);
      const reading = readEntryFacts(bytes);
      if (entryName === null || reading.outcome === 'unchecked') return null;
      const look = lookAtRead({ type: 'bytes', bytes, size: bytes.length, mtimeMs: 1_795_000_000_000, identity: { dev: 1, ino: 1 } }, () => reading);
      packer.add({ name, entryName, seen: look.seen, mtimeMs: look.mtimeMs });
      if (packer.count >= 1_000) packer.take();
      return look;
    },
  };
  const best = Object.fromEntries(SCAN_STEPS.map((step) => [step, Number.POSITIVE_INFINITY])) as Record<Step, number>;
  for (let round = 0; round < STEP_ROUNDS; round++) {
    for (const step of SCAN_STEPS) {
      const take = steps[step];
      const started = process.cpuUsage();
      // Each entry is read from the one scratch buffer, as a scan thread reads it.
      for (const file of files) take(file.name, scratch.subarray(0, file.bytes.copy(scratch)));
      const cpu = process.cpuUsage(started);
      // The first round warms the code up.
      if (round > 0) best[step] = Math.min(best[step], (cpu.user + cpu.system) / files.length);
    }
  }
  return { files: files.length, rounds: STEP_ROUNDS - 1, usPerFile: best };
}

// Run as a script.
if (process.argv[1] === HERE) {
  const [recordDir, layer] = process.argv.slice(2) as [string, Layer | 'steps'];
  process.stdout.write(`${JSON.stringify(layer === 'steps' ? timeSteps(recordDir) : readAsLayer(recordDir, layer))}\n`);
}
