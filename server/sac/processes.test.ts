import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { deriveLiveness, SEAT_TTL_MS } from '../../shared/sac/liveness.ts';
import { readRegistry, type StoreFacts } from '../../shared/sac/storeFiles.ts';
import { bytesOf } from '../../shared/sac/testing/sacWriter.ts';
import { checkProcesses } from './processes.ts';

// Real processes on this machine, named by a registry as sac writes one: whether each runs, and when
// it started, so that a pid reused by a later process is not taken for the writer.

function registryNaming(pid: number, wrote: number, host?: string): StoreFacts['registry'] {
  const at = new Date(wrote).toISOString().replace('Z', '+00:00');
  const seats = { 'web-app#3f9c1a20': { session: '3f9c1a20-1111-2222-3333-444455556666', writers: { [pid]: at }, rooms: ['team'], firstSeen: at, lastSeen: at } };
  return readRegistry({ state: 'read', bytes: bytesOf(JSON.stringify({ agents: { 'web-app': { agent: 'web-app', host, seats } } })) });
}

let child: ChildProcess;
let spawnedAt = 0;

describe('the writers’ processes, asked of this machine (Linux: a start is read from /proc)', () => {
  before(async () => {
    spawnedAt = Date.now();
    child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await once(child, 'spawn');
  });
  after(() => {
    child.kill();
  });

  it('a running writer is told with when it started, to within the system’s second', () => {
    const { states } = checkProcesses({ registry: registryNaming(child.pid!, spawnedAt) } as StoreFacts);
    const state = states.get(child.pid!);
    assert.ok(typeof state === 'object', `expected a start time, got ${JSON.stringify(state)}`);
    assert.ok(Math.abs(state.startedAt - spawnedAt) < 2_000, `started ${state.startedAt - spawnedAt} ms from its spawn`);
  });

  it('a process started after the writer last wrote is not the writer: its seat, silent for half an hour, is gone', () => {
    const wrote = spawnedAt - SEAT_TTL_MS - 60_000;
    const registry = registryNaming(child.pid!, wrote);
    const liveness = deriveLiveness('web-app#3f9c1a20', registry, Date.now(), checkProcesses({ registry } as StoreFacts));
    assert.equal(liveness.word, 'gone');
    assert.match(liveness.why, new RegExp(`pid ${child.pid} now names another process, one started after that writer last wrote`));
    const writing = registryNaming(child.pid!, spawnedAt + 100);
    assert.equal(deriveLiveness('web-app#3f9c1a20', writing, Date.now(), checkProcesses({ registry: writing } as StoreFacts)).word, 'live');
  });

  it('this machine goes by its host name, and a writer filed under it is asked; one filed under another host is not', () => {
    const here = checkProcesses({ registry: registryNaming(child.pid!, spawnedAt, hostname()) } as StoreFacts);
    assert.equal(here.host, hostname());
    assert.ok(here.states.has(child.pid!));
    const elsewhere = registryNaming(child.pid!, spawnedAt, `not-${hostname()}`);
    const machine = checkProcesses({ registry: elsewhere } as StoreFacts);
    assert.equal(machine.states.has(child.pid!), false);
    assert.equal(deriveLiveness('web-app#3f9c1a20', elsewhere, Date.now(), machine).word, 'unknown');
  });

  it('a writer that exited is told as exited', async () => {
    const gone = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await once(gone, 'exit');
    assert.equal(checkProcesses({ registry: registryNaming(gone.pid!, Date.now()) } as StoreFacts).states.get(gone.pid!), 'exited');
  });
});
