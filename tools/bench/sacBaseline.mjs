import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readMinorFaults } from './freshPages.mjs';
import { readStorageBytes } from './storageReads.mjs';

// The baseline for reading a set-agent-comm store: the plainest read there is, in a fresh
// process. Every seat file read as text and split at its header lines, synchronously. Prints one
// JSON line. JavaScript, as sacProcess.mjs is: no type stripper in its RSS.

const root = process.argv[2];
if (root === undefined) {
  process.stderr.write('usage: node sacBaseline.mjs <root>\n');
  process.exit(2);
}
const started = performance.now();
const cpu = process.cpuUsage();
let files = 0;
let entries = 0;
for (const room of readdirSync(join(root, 'channels'))) {
  for (const name of readdirSync(join(root, 'channels', room))) {
    const text = readFileSync(join(root, 'channels', room, name), 'utf8');
    files++;
    for (const line of text.split('\n')) if (line.startsWith('## ')) entries++;
  }
}
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
process.stdout.write(`${JSON.stringify({ files, entries, ms, cpuMs: (used.user + used.system) / 1000, maxRssBytes: process.resourceUsage().maxRSS * 1024, diskReadBytes: readStorageBytes(), minorFaults: readMinorFaults() })}\n`);
