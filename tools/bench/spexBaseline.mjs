import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readMinorFaults } from './freshPages.mjs';
import { readStorageBytes } from './storageReads.mjs';

// The baseline for reading a spex home: the plainest read of the same files, in a fresh process.
// Every segment of every session is read whole, split at newlines, and each line parsed as JSON,
// synchronously. Prints one JSON line. JavaScript, as spexProcess.mjs is: no type stripper in its RSS.

const home = process.argv[2];
if (home === undefined) {
  process.stderr.write('usage: node spexBaseline.mjs <spexHome>\n');
  process.exit(2);
}
const started = performance.now();
const cpu = process.cpuUsage();
let lines = 0;
let files = 0;
const projects = join(home, 'projects');
for (const project of readdirSync(projects)) {
  const sessions = join(projects, project, 'sessions');
  for (const session of readdirSync(sessions)) {
    const timeline = join(sessions, session, 'timeline');
    JSON.parse(readFileSync(join(sessions, session, 'session.json'), 'utf8'));
    for (const name of readdirSync(timeline)) {
      files++;
      for (const line of readFileSync(join(timeline, name), 'utf8').split('\n')) {
        if (line === '') continue;
        JSON.parse(line);
        lines++;
      }
    }
  }
}
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
process.stdout.write(`${JSON.stringify({ files, lines, ms, cpuMs: (used.user + used.system) / 1000, maxRssBytes: process.resourceUsage().maxRSS * 1024, diskReadBytes: readStorageBytes(), minorFaults: readMinorFaults() })}\n`);
