import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readMinorFaults } from './freshPages.mjs';
import { readStorageBytes } from './storageReads.mjs';

// The baseline for reading: the plainest scan of the record there is, in a fresh process.
// Every session folder is listed, and every file in it read and parsed as JSON, synchronously.
// `--list` only lists the folders, the baseline for a reconcile. Prints one JSON line.

const [recordDir, mode] = process.argv.slice(2);
if (recordDir === undefined) {
  process.stderr.write('usage: node baselineScan.ts <recordDir> [--list]\n');
  process.exit(2);
}
const started = performance.now();
let files = 0;
let bytes = 0;
let unparsed = 0;
for (const session of readdirSync(recordDir, { withFileTypes: true })) {
  if (!session.isDirectory()) continue;
  const folder = join(recordDir, session.name);
  for (const name of readdirSync(folder)) {
    files++;
    if (mode === '--list') continue;
    const text = readFileSync(join(folder, name), 'utf8');
    bytes += text.length;
    try {
      JSON.parse(text);
    } catch {
      unparsed++;
    }
  }
}
const ms = performance.now() - started;
const cpu = process.cpuUsage();
const diskReadBytes = readStorageBytes();
const minorFaults = readMinorFaults();
process.stdout.write(`${JSON.stringify({ files, bytes, unparsed, ms, cpuMs: (cpu.user + cpu.system) / 1000, maxRssBytes: process.resourceUsage().maxRSS * 1024, diskReadBytes, minorFaults })}\n`);
