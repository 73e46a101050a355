import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readEntryFacts } from '../../shared/record/entryFacts.ts';
import { parseEntryName } from '../../shared/record/entryName.ts';
import { lookAtRead } from '../../server/record/lookAtFile.ts';
import { fingerprintEntry, readRecordFile } from '../../server/record/readRecordFile.ts';
import { createLooksPacker } from '../../server/record/scanLooks.ts';
import { listFolder, pathIn } from '../../server/watch/listFolder.ts';

// Where a scan thread's time goes, without a profiler to stretch it: the record read on one
// thread, in a fresh process a layer, each layer doing what the one before did and one step of
// the scan thread's more, in its own CPU time beside the plain scan's (readdir, readFileSync,
// JSON.parse) in the same run. Run as a script: `node scanLayers.ts <record> <layer>`.

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

// Run as a script.
if (process.argv[1] === HERE) {
  const [recordDir, layer] = process.argv.slice(2) as [string, Layer];
  process.stdout.write(`${JSON.stringify(readAsLayer(recordDir, layer))}\n`);
}
