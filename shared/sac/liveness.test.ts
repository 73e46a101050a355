import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deriveLiveness, PROCESS_START_SLACK_MS, SEAT_TTL_MS, type ProcessState } from './liveness.ts';
import { readRegistry } from './storeFiles.ts';
import { EXAMPLE_STORE } from './testing/exampleStore.ts';
import { bytesOf } from './testing/sacWriter.ts';
import { onExampleHost } from './testing/machine.ts';

const registry = readRegistry({ state: 'read', bytes: bytesOf(EXAMPLE_STORE['registry.json']!) });
const SEAT = 'web-app#3f9c1a20'; // writer pid 8690, lastSeen 17:18:53.872Z
const lastSeen = Date.parse('2026-11-30T17:18:53.872+00:00');
const none = onExampleHost();

describe('liveness, derived as sac derives it', () => {
  it('a running process that writes for the seat makes it live', () => {
    const liveness = deriveLiveness(SEAT, registry, lastSeen + 5 * 3_600_000, onExampleHost([[8690, 'running']]));
    assert.deepEqual(liveness, { word: 'live', basis: 'derived', why: 'a process that writes for it is running (pid 8690)' });
  });

  it('a process under the writer’s pid started after the writer last wrote is another process, the pid reused: not live, and said', () => {
    const wrote = lastSeen; // the writer's time in the registry is its last write
    const silent = lastSeen + SEAT_TTL_MS;
    const later = deriveLiveness(SEAT, registry, silent, onExampleHost([[8690, { startedAt: wrote + 60_000 }]]));
    assert.equal(later.word, 'gone');
    assert.match(later.why, /pid 8690 now names another process, one started after that writer last wrote \(2026-11-30T17:18:53\.872\+00:00\), which sac would take for the writer and call the seat live$/);
    const recent = deriveLiveness(SEAT, registry, lastSeen + 60_000, onExampleHost([[8690, { startedAt: wrote + 60_000 }]]));
    assert.equal(recent.word, 'unknown');
    assert.match(recent.why, /pid 8690 now names another process/);
    assert.equal(deriveLiveness(SEAT, registry, silent, onExampleHost([[8690, { startedAt: wrote + PROCESS_START_SLACK_MS + 1 }]])).word, 'gone');
    // Started before it wrote, or a moment after as the system's second-long start times tell it: the writer.
    assert.equal(deriveLiveness(SEAT, registry, silent, onExampleHost([[8690, { startedAt: wrote - 3_600_000 }]])).word, 'live');
    assert.equal(deriveLiveness(SEAT, registry, silent, onExampleHost([[8690, { startedAt: wrote + PROCESS_START_SLACK_MS }]])).word, 'live');
  });

  it('a writer whose time names no instant is taken for its process, as sac takes it', () => {
    const odd = readRegistry({ state: 'read', bytes: bytesOf('{"agents": {"a": {"seats": {"a#1": {"writers": {"8690": "yesterday"}, "lastSeen": "2026-11-30T17:18:53.872+00:00"}}}}}') });
    assert.equal(deriveLiveness('a#1', odd, lastSeen + SEAT_TTL_MS, onExampleHost([[8690, { startedAt: lastSeen + 3_600_000 }]])).word, 'live');
  });

  it('no running process, but a check-in within half an hour, is unknown: not gone', () => {
    const liveness = deriveLiveness(SEAT, registry, lastSeen + SEAT_TTL_MS - 1, onExampleHost([[8690, 'exited']]));
    assert.equal(liveness.word, 'unknown');
    assert.match(liveness.why, /checked in 30 minutes ago/);
  });

  it('no running process and silent for half an hour is gone, only when every pid was checked', () => {
    const silent = lastSeen + SEAT_TTL_MS;
    assert.equal(deriveLiveness(SEAT, registry, silent, onExampleHost([[8690, 'exited']])).word, 'gone');
    const unchecked = deriveLiveness(SEAT, registry, silent, none);
    assert.equal(unchecked.word, 'unknown');
    assert.equal(unchecked.why, 'whether its process 8690 is running was not checked');
  });

  it('how long a gone seat has been silent reads in hours, then days, not in thousands of minutes', () => {
    const exited = onExampleHost([[8690, 'exited']]);
    assert.match(deriveLiveness(SEAT, registry, lastSeen + 90 * 60_000, exited).why, /last checked in 90 minutes ago/);
    assert.match(deriveLiveness(SEAT, registry, lastSeen + 5 * 3_600_000, exited).why, /last checked in 5 hours ago/);
    assert.match(deriveLiveness(SEAT, registry, lastSeen + 7 * 86_400_000 + 60_000, exited).why, /last checked in 7 days ago/);
  });

  it('a seat the registry does not hold is unknown, never gone by default', () => {
    assert.equal(deriveLiveness('web-app#00000000', registry, lastSeen + 86_400_000, none).word, 'unknown');
  });

  it('a registry that does not parse, or none at all, leaves liveness unknown', () => {
    assert.equal(deriveLiveness(SEAT, readRegistry({ state: 'read', bytes: bytesOf('{') }), lastSeen, none).word, 'unknown');
    assert.equal(deriveLiveness(SEAT, readRegistry({ state: 'absent' }), lastSeen, none).word, 'unknown');
  });

  it('a lastSeen that names no instant is unknown, where sac would read it as long gone', () => {
    const odd = readRegistry({ state: 'read', bytes: bytesOf('{"agents": {"a": {"seats": {"a#1": {"writers": {}, "lastSeen": "yesterday"}}}}}') });
    assert.equal(deriveLiveness('a#1', odd, lastSeen, none).word, 'unknown');
  });

  it('a remote seat, with no writers, is unknown while recent and gone after half an hour, as sac says', () => {
    const remote = readRegistry({
      state: 'read',
      bytes: bytesOf('{"agents": {"web-app@macmini": {"remote": true, "seats": {"web-app@macmini#7b02e5d1": {"session": null, "writers": {}, "remote": true, "lastSeen": "2026-11-30T17:18:53.872+00:00"}}}}}'),
    });
    assert.equal(deriveLiveness('web-app@macmini#7b02e5d1', remote, lastSeen + 60_000, none).word, 'unknown');
    assert.equal(deriveLiveness('web-app@macmini#7b02e5d1', remote, lastSeen + SEAT_TTL_MS, none).word, 'gone');
  });

  it('a seat whose agent the registry files under another host is unknown, never gone nor live: its pids are that machine’s numbers', () => {
    const laptop = (states: [number, ProcessState][]) => ({ host: 'laptop', states: new Map(states) });
    const weekLater = lastSeen + 7 * 86_400_000;
    for (const states of [[], [[8690, 'exited']], [[8690, 'running']]] as [number, ProcessState][][]) {
      const liveness = deriveLiveness(SEAT, registry, weekLater, laptop(states));
      assert.deepEqual(liveness, {
        word: 'unknown',
        basis: 'derived',
        why: 'its writers ran on host "vm" (registry.json\'s host for its agent), not on this machine: their pids are not looked up here; it last checked in 7 days ago',
      });
    }
    assert.equal(deriveLiveness(SEAT, registry, lastSeen + 60_000, laptop([[8690, 'running']])).word, 'unknown');
    // On the machine the registry names, the same pids decide.
    assert.equal(deriveLiveness(SEAT, registry, weekLater, onExampleHost([[8690, 'exited']])).word, 'gone');
    assert.equal(deriveLiveness(SEAT, registry, weekLater, onExampleHost([[8690, 'running']])).word, 'live');
  });

  it('a seat whose agent names no host, or an empty one, is checked on this machine, as sac checks it; a host is a name in any case', () => {
    const filedUnder = (host: string) =>
      readRegistry({ state: 'read', bytes: bytesOf(`{"agents": {"a": {${host}"seats": {"a#1": {"writers": {"8690": "2026-11-30T17:18:53.872+00:00"}, "lastSeen": "2026-11-30T17:18:53.872+00:00"}}}}}`) });
    const laptop = { host: 'laptop', states: new Map<number, ProcessState>([[8690, 'exited']]) };
    assert.equal(deriveLiveness('a#1', filedUnder(''), lastSeen + SEAT_TTL_MS, laptop).word, 'gone');
    assert.equal(deriveLiveness('a#1', filedUnder('"host": "", '), lastSeen + SEAT_TTL_MS, laptop).word, 'gone');
    assert.equal(deriveLiveness('a#1', filedUnder('"host": "Laptop", '), lastSeen + SEAT_TTL_MS, laptop).word, 'gone');
    assert.equal(deriveLiveness('a#1', filedUnder('"host": "desktop", '), lastSeen + SEAT_TTL_MS, laptop).word, 'unknown');
  });

  it('liveness is labelled derived, always', () => {
    for (const now of [lastSeen, lastSeen + SEAT_TTL_MS * 3]) {
      for (const processes of [none, onExampleHost([[8690, 'running']]), onExampleHost([[8690, 'exited']])]) {
        assert.equal(deriveLiveness(SEAT, registry, now, processes).basis, 'derived');
      }
    }
  });
});
