import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readMinorFaults } from './freshPages.mjs';
import { readStorageBytes } from './storageReads.mjs';

// The sac source alone over a store, in a fresh process, as the dashboard holds it: its first
// read, the list of every seat's summary, then new entries appended by a writer process of its
// own (sacWriter.ts), each timed from its write to the notice of its seat with the seat's summary
// made. Prints one JSON line. JavaScript, and the source module named by path, as spexProcess.mjs:
// the built one (dist/server/sac/sacSource.js) is measured as the published command runs it, with
// no type stripper loaded, and `--source` names server/sac/sacSource.ts.
//   node sacProcess.mjs <sacSource module> <root> <writes>

const [modulePath, root, writesArg] = process.argv.slice(2);
if (modulePath === undefined || root === undefined) {
  process.stderr.write('usage: node sacProcess.mjs <sacSource module> <root> <writes>\n');
  process.exit(2);
}
const writes = Number(writesArg ?? 200);
const { createSacSource } = await import(pathToFileURL(modulePath).href);

/** CPU time (user and system) spent since `from`, every thread of the process. */
const cpuMsSince = (from) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};
/** Now, on the wall clock the writer's times are on (epoch ms, with their fraction). */
const wallNow = () => performance.timeOrigin + performance.now();

/** A writer process of its own: `write` resolves with the wall-clock time of its write. */
function startWriter() {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./sacWriter.ts', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(JSON.parse(line).at));
  return {
    write: (path, text) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(`${JSON.stringify({ path, text })}\n`);
      }),
    close: () => child.stdin.end(),
  };
}

const started = performance.now();
const cpu = process.cpuUsage();
const source = createSacSource({ root });
await source.start();
const ms = performance.now() - started;
const cpuMs = cpuMsSince(cpu);
const diskReadBytes = readStorageBytes();
const minorFaults = readMinorFaults();
const listStarted = performance.now();
const seats = [...source.conversations()].length;
const listMs = performance.now() - listStarted;

const rooms = readdirSync(join(root, 'channels')).filter((name) => !name.startsWith('.'));
const noticeMs = [];
let missed = 0;
let waiting = null;
source.subscribe((notice) => {
  if (notice.type === 'conversation-changed' && waiting !== null && notice.id === waiting.seat) {
    source.conversation(notice.id);
    waiting.noticed(wallNow());
  }
});
if (writes > 0) {
  const writer = startWriter();
  // The writer's first write costs its start: it is not timed.
  await writer.write(join(root, 'channels', rooms[0], readdirSync(join(root, 'channels', rooms[0]))[0]), 'warm-up');
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (let i = 0; i < writes; i++) {
    // Spread over the store, the same seats each run.
    const room = rooms[(i * 37) % rooms.length];
    const names = readdirSync(join(root, 'channels', room)).filter((name) => name.endsWith('.md'));
    const name = names[(i * 13) % names.length];
    const noticed = new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting = null;
        resolve(null);
      }, 2_000);
      waiting = {
        seat: name.slice(0, -3),
        noticed: (at) => {
          clearTimeout(timer);
          waiting = null;
          resolve(at);
        },
      };
    });
    const [writtenAt, noticedAt] = await Promise.all([writer.write(join(root, 'channels', room, name), `live ${i}`), noticed]);
    if (noticedAt === null) missed++;
    else noticeMs.push(noticedAt - writtenAt);
    await new Promise((resolve) => setTimeout(resolve, 20 + ((i * 7) % 30)));
  }
  writer.close();
}
await source.close();
process.stdout.write(`${JSON.stringify({ ms, cpuMs, listMs, seats, noticeMs, missed, maxRssBytes: process.resourceUsage().maxRSS * 1024, diskReadBytes, minorFaults })}\n`);
process.exit(0);
