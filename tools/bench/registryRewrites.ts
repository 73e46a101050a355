import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sacEntryBytes } from '../../server/demo/sacWrite.ts';
import { createSacSource } from '../../server/sac/sacSource.ts';

// A large registry.json rewritten again and again, as sac writes it (whole, to a temporary, renamed
// into place), beside a sac source reading the store: how long the source's event loop is held
// (perf_hooks.monitorEventLoopDelay, p99 and max) and how much CPU it spends, the process's and its
// event loop thread's, while the rewrites go on; then how long after the last rewrite its
// registry is the last one.
//
//   node tools/bench/registryRewrites.ts [--mb 50] [--rate 5] [--seconds 20]
//   node tools/bench/registryRewrites.ts write <root> <mb> <rate> <count>   (the writer, for tests)
//
// The reader runs in a process of its own (`read <root>`), told by lines on stdin.

const SCRIPT = fileURLToPath(import.meta.url);
const SEAT = 'web-app#3f9c1a20';

/** A registry of about `mb` megabytes, as sac lays it out; the seat SEAT's session is `marker`. */
export function makeRegistry(mb: number, marker: string): Buffer {
  const agents: Record<string, unknown> = { 'web-app': { agent: 'web-app', project: '/home/dev/web-app', seats: { [SEAT]: { session: marker, rooms: ['team'] } } } };
  const wanted = mb * 1024 * 1024;
  let size = 0;
  for (let a = 0; size < wanted; a++) {
    const agent = `agent-${a}`;
    const seats: Record<string, unknown> = {};
    for (let s = 0; s < 50; s++) {
      const seat = `${agent}#${(a * 100 + s).toString(16).padStart(8, '0')}`;
      seats[seat] = { session: `${seat.slice(-8)}-1111-2222-3333-444455556666`, owner: 1000 + s, writers: { [String(2000 + s)]: '2026-11-30T17:18:53.872+00:00' }, rooms: ['team', `room-${s}`], firstSeen: '2026-11-30T17:18:53.143+00:00', lastSeen: '2026-11-30T17:18:53.872+00:00' };
    }
    agents[agent] = { agent, seats, project: `/home/dev/projects/${agent}`, session: null, host: hostname(), rooms: ['team'], firstSeen: '2026-11-30T17:18:53.144+00:00', lastSeen: '2026-11-30T17:18:53.872+00:00' };
    size += 50 * 400;
  }
  return Buffer.from(`${JSON.stringify({ agents }, null, 2)}\n`);
}

/** Writes `bytes` as sac's writeJson does: whole, to `<file>.tmp.<pid>`, renamed into place. */
function writeWhole(root: string, bytes: Buffer): void {
  const file = join(root, 'registry.json');
  const temporary = `${file}.tmp.${process.pid}`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, file);
}

/** Rewrites the registry `count` times, `rate` a second, each with its own marker; the last is `last`. */
async function rewrite(root: string, mb: number, rate: number, count: number): Promise<void> {
  const template = makeRegistry(mb, 'marker-00000');
  const at = template.indexOf('marker-00000');
  const began = performance.now();
  for (let i = 1; i <= count; i++) {
    const started = performance.now();
    template.write(i === count ? 'marker-last!' : `marker-${String(i).padStart(5, '0')}`, at);
    writeWhole(root, template);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 / rate - (performance.now() - started))));
  }
  process.stderr.write(`${count} rewrites in ${((performance.now() - began) / 1000).toFixed(1)} s\n`);
}

/** Spawns a process that rewrites the registry under `root`; resolves when it is done. */
export function startRegistryRewrites(root: string, options: { mb: number; rate: number; count: number }): Promise<void> {
  const child = spawn(process.execPath, [SCRIPT, 'write', root, String(options.mb), String(options.rate), String(options.count)], { stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`registry writer exited ${code}`)))));
}

/** The reader's process: a sac source on `root`, measured between `go` and `stop`. */
async function read(root: string): Promise<void> {
  const source = createSacSource({ root });
  await source.start();
  const sessionOf = () => {
    const seat = source.conversation(SEAT);
    return seat === null ? null : (JSON.parse(seat.json) as { session: { session?: string } }).session.session ?? null;
  };
  let delay = monitorEventLoopDelay({ resolution: 10 });
  let cpu = process.cpuUsage();
  let mainCpu = process.threadCpuUsage();
  let started = performance.now();
  // The longest the event loop was held, seen by a timer of its own: beside the histogram, which samples.
  let gaps: number[] = [];
  let tickAt = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    gaps.push(now - tickAt - 10);
    tickAt = now;
  }, 10);
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line === 'go') {
      delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      // The histogram's first sample runs from before it was enabled: it is dropped.
      await new Promise((resolve) => setTimeout(resolve, 50));
      delay.reset();
      cpu = process.cpuUsage();
      mainCpu = process.threadCpuUsage();
      started = performance.now();
      process.stdout.write('{"going":true}\n');
    } else if (line === 'stop') {
      delay.disable();
      clearInterval(ticker);
      const held = Math.max(...gaps);
      const wallMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const main = process.threadCpuUsage(mainCpu);
      // Then: how long until the registry read is the last one written.
      const stopped = performance.now();
      while (sessionOf() !== 'marker-last!' && performance.now() - stopped < 60_000) await new Promise((resolve) => setTimeout(resolve, 20));
      const lastMs = performance.now() - stopped;
      const ms = (ns: number) => ns / 1e6;
      process.stdout.write(
        `${JSON.stringify({ p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max), samples: delay.count, held, cpuShare: (used.user + used.system) / 1000 / wallMs, mainCpuShare: (main.user + main.system) / 1000 / wallMs, lastMs, last: sessionOf() === 'marker-last!' })}\n`,
      );
      break;
    }
  }
  await source.close();
  process.exit(0);
}

async function measure(mb: number, rate: number, seconds: number): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'rec-registry-'));
  try {
    mkdirSync(join(root, 'channels', 'team'), { recursive: true });
    writeFileSync(join(root, 'channels', 'team', `${SEAT}.md`), sacEntryBytes(0, { ts: '2026-11-30T17:18:53.482+00:00', type: 'FACT', text: 'hello' }));
    writeWhole(root, makeRegistry(mb, 'marker-00000'));
    const reader = spawn(process.execPath, [SCRIPT, 'read', root], { stdio: ['pipe', 'pipe', 'inherit'] });
    const replies = createInterface({ input: reader.stdout })[Symbol.asyncIterator]();
    reader.stdin.write('go\n');
    await replies.next();
    await startRegistryRewrites(root, { mb, rate, count: Math.round(rate * seconds) });
    reader.stdin.write('stop\n');
    const result = JSON.parse(String((await replies.next()).value)) as Record<string, number | boolean>;
    console.log(JSON.stringify({ mb, rate, seconds, ...result }));
    console.log(
      `registry.json of ${mb} MB rewritten ${rate}×/s for ${seconds} s: event loop delay p99 ${Number(result['p99']).toFixed(0)} ms, max ${Number(result['max']).toFixed(0)} ms (longest gap between ticks of a 10 ms timer: ${Number(result['held']).toFixed(0)} ms); ` +
        `CPU ${(Number(result['cpuShare']) * 100).toFixed(0)}% of a core (event loop thread ${(Number(result['mainCpuShare']) * 100).toFixed(0)}%); ` +
        `the last rewrite read ${Number(result['lastMs']).toFixed(0)} ms after it was written${result['last'] === true ? '' : ' — NEVER READ'}`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'write') await rewrite(rest[0]!, Number(rest[1]), Number(rest[2]), Number(rest[3]));
  else if (command === 'read') await read(rest[0]!);
  else {
    const { values } = parseArgs({ args: process.argv.slice(2), options: { mb: { type: 'string', default: '50' }, rate: { type: 'string', default: '5' }, seconds: { type: 'string', default: '20' } } });
    await measure(Number(values.mb), Number(values.rate), Number(values.seconds));
  }
}
