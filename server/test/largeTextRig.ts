import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { startDashboard, type Dashboard } from '../dashboard.ts';
import { describeExportActivity } from '../export/pipeline.ts';
import { TEST_SEARCH_BUDGET_MS, eventually } from './harness.ts';

// What the tests of large texts share: a dashboard over a spex home and a sac store, once both
// are read; the bytes this process has read (the kernel's count, whatever the machine's load);
// and clients that take the start of an export and go away.

/** A dashboard over a spex home and a set-agent-comm store, once both are read. */
export async function startSpexAndSac(spexHome: string, sacStore: string): Promise<Dashboard> {
  const dashboard = await startDashboard({
    stores: [
      { kind: 'spex', root: spexHome },
      { kind: 'sac', root: sacStore },
    ],
    token: null,
    host: '127.0.0.1',
    port: 0,
    portFallback: false,
    webRoot: null,
    reconcileIntervalMs: 60_000,
    searchBudgetMs: TEST_SEARCH_BUDGET_MS,
  });
  await eventually(() => (dashboard.sources.every((source) => source.status().indexing.state === 'ready') ? true : undefined), 'the first scans', 60_000);
  return dashboard;
}

/** The bytes this process has read so far (`rchar`): the server's reads, and the clients'. */
export function readBytes(): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
}

/** GETs a path, takes `dropAfter` bytes of its body and goes away; resolves with how many came. */
function takeAndDrop(origin: string, path: string, dropAfter: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, origin), (response) => {
      let got = 0;
      response.on('data', (chunk: Buffer) => {
        got += chunk.length;
        if (got >= dropAfter) {
          req.destroy();
          resolve(got);
        }
      });
      response.on('end', () => resolve(got));
      response.on('error', () => resolve(got));
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}

/**
 * What `clients` clients that each drop an export after `dropAfter` bytes make the server read,
 * and what each got. The clients are in this process, and their sockets' reads count in its
 * `rchar` too: the bytes they got are not the server's reads, and are taken off (ten clients
 * took at least a megabyte each, enough to blur a bound of a few times a 32 MB text).
 */
export async function readForDroppedExports(origin: string, path: string, clients: number, dropAfter: number): Promise<{ read: number; got: number[] }> {
  const from = readBytes();
  const got = await Promise.all(Array.from({ length: clients }, () => takeAndDrop(origin, path, dropAfter)));
  await eventually(() => (describeExportActivity().running === 0 ? true : undefined), 'the exports to stop', 60_000);
  const taken = got.reduce((sum, bytes) => sum + bytes, 0);
  return { read: readBytes() - from - taken, got };
}
