import { findFirst } from './lookup.ts';
import { parseInstant } from './time.ts';
import type { RegistryFacts, StoreFileReading } from './storeFiles.ts';

// Liveness is not in the files (sac-channels-format: What a reader must do). sac derives it in
// `seatState` from the registry: live when a process that wrote for the seat is running; else
// "we do not know" while it checked in within half an hour; else gone. This derives it the same
// way and says so (`basis: 'derived'`). Where the reader cannot know, it says unknown, never gone:
// a seat missing from the registry, no time of its last check-in, a process nobody checked, a
// process on another machine. Two differences, said where they apply: a pid whose process started
// after the writer last wrote is a reused number, another process, not the writer (sac would count
// it running); and the pids of an agent filed under another host (a store copied from another
// machine) are not looked up here (sac would look them up all the same).

/** How long after its last check-in a seat with no running process may still be working (sac's SEAT_TTL_MS). */
export const SEAT_TTL_MS = 30 * 60_000;

/**
 * What the reader found of a process on this machine. A pid the reader did not or could not check
 * is absent from the map. A running process is `{ startedAt }` (epoch ms) where the reader could
 * tell when it started, 'running' where it could not.
 */
export type ProcessState = 'running' | 'exited' | { startedAt: number };

/**
 * The machine the reader runs on, by the name sac files an agent's host under (the system's host
 * name), and what it found of the registry's writer pids there (isElsewhere says which are).
 */
export type ProcessCheck = { host: string; states: ReadonlyMap<number, ProcessState> };

/**
 * How much later than a writer's last write its pid's process may seem to have started and still be
 * that writer: the system tells a start to the second since boot, and clocks drift.
 */
export const PROCESS_START_SLACK_MS = 5_000;

/**
 * Whether the process running under a writer's pid can be that writer. A pid is reused once its
 * process exits, so a process started after the writer last wrote is another one: sac asks only
 * whether the pid runs and would count it, this reader says which it is.
 */
function isThatWriter(state: ProcessState | undefined, wrote: number | null): boolean {
  if (state === undefined || state === 'exited') return false;
  if (state === 'running' || wrote === null) return true;
  return state.startedAt <= wrote + PROCESS_START_SLACK_MS;
}

/** Liveness as a word (sac's `sac.agents/1`: live · unknown · gone), never a boolean. */
export type Liveness = { word: 'live' | 'unknown' | 'gone'; basis: 'derived'; why: string };

/** How long a seat has been silent, in the unit a reader would use: minutes, then hours, then days. */
function silentFor(ms: number): string {
  const m = Math.round(ms / 60_000);
  const [count, unit] = m < 120 ? [m, 'minute'] : m < 48 * 60 ? [Math.round(m / 60), 'hour'] : [Math.round(m / 1440), 'day'];
  return `${count.toLocaleString('en')} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * A seat's liveness, derived as sac derives it. `now` is the wall clock (epoch ms), which the
 * registry's times are compared with; `machine` what the reader found of the writers' pids here.
 */
export function deriveLiveness(seat: string, registry: StoreFileReading<RegistryFacts>, now: number, machine: ProcessCheck): Liveness {
  const unknown = (why: string): Liveness => ({ word: 'unknown', basis: 'derived', why });
  if (registry.state === 'unknown') return unknown(`the registry is unknown (${registry.why})`);
  if (registry.state === 'absent') return unknown('there is no registry.json: nobody checked in');
  const record = findFirst(registry.facts.seats, 'seat', seat);
  if (record === undefined) return unknown('not in registry.json (pruned, or never checked in here)');
  const lastSeen = record.lastSeen === null ? null : parseInstant(record.lastSeen);
  const checkedIn = lastSeen === null ? null : lastSeen > now ? 'at a time still to come' : `${silentFor(now - lastSeen)} ago`;
  if (isElsewhere(record, machine)) {
    // This machine's name is not said: a why goes into exports, which are passed on.
    return unknown(`its writers ran on host "${record.host}" (registry.json's host for its agent), not on this machine: their pids are not looked up here${checkedIn === null ? '' : `; it last checked in ${checkedIn}`}`);
  }
  const processes = machine.states;
  const running = record.writers.find((writer) => writer.pid !== null && isThatWriter(processes.get(writer.pid), parseInstant(writer.at)));
  if (running !== undefined) return { word: 'live', basis: 'derived', why: `a process that writes for it is running (pid ${running.pid})` };
  const reused = record.writers.find((writer) => writer.pid !== null && typeof processes.get(writer.pid) === 'object');
  const later = reused === undefined ? '' : `; pid ${reused.pid} now names another process, one started after that writer last wrote (${reused.at}), which sac would take for the writer and call the seat live`;
  if (lastSeen === null) return unknown(`registry.json holds no time of its last check-in${later}`);
  const silent = now - lastSeen;
  if (silent < SEAT_TTL_MS) return unknown(`no process of it is running, but it checked in ${checkedIn}: a session working through hooks alone has no lasting process${later}`);
  // sac reads a pid it cannot find as exited; this reader says so only of pids it checked.
  const unchecked = record.writers.find((writer) => writer.pid !== null && !processes.has(writer.pid));
  if (unchecked !== undefined) return unknown(`whether its process ${unchecked.pid} is running was not checked${later}`);
  return { word: 'gone', basis: 'derived', why: `no process of it is running, and it last checked in ${silentFor(silent)} ago (sac counts a seat gone after 30 minutes)${later}` };
}

/**
 * Whether a seat's writers ran on another machine than the reader's: its agent is filed under
 * another host (host names compared as names, in any case), so its pids are that machine's numbers
 * and are never looked up here. The host is the agent's, not each seat's: a seat of that agent
 * written on another machine under this one's name is looked up here, as sac would. An agent
 * with no host named is taken to be this machine's, as sac takes it. A remote seat (sac's relay)
 * has no writers here and is derived from its check-ins, as sac derives it.
 */
export function isElsewhere(record: { host: string | null; remote: boolean }, machine: Pick<ProcessCheck, 'host'>): boolean {
  if (record.remote || record.host === null || record.host === '') return false;
  return record.host.toLowerCase() !== machine.host.toLowerCase();
}
