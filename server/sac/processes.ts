import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { isElsewhere, type ProcessCheck, type ProcessState } from '../../shared/sac/liveness.ts';
import type { StoreFacts } from '../../shared/sac/storeFiles.ts';

// Whether the registry's writer pids run on this machine, for liveness derived as sac derives it,
// and, where the system tells it, when each running one started: a pid is reused once its process
// exits, and the core tells a later process from the writer by that time.

/**
 * Which writers' pids are running on this machine, named as sac names the host it files an agent
 * under (the system's host name). Signal 0 sends nothing: it only asks. A remote seat's pids, and
 * those of an agent filed under another host (isElsewhere), are another machine's: not asked.
 */
export function checkProcesses(store: StoreFacts): ProcessCheck {
  const states = new Map<number, ProcessState>();
  const machine = { host: hostname(), states };
  if (store.registry.state !== 'read') return machine;
  const booted = bootTime();
  for (const seat of store.registry.facts.seats) {
    if (seat.remote || isElsewhere(seat, machine)) continue;
    for (const writer of seat.writers) {
      if (writer.pid === null || states.has(writer.pid)) continue;
      try {
        process.kill(writer.pid, 0);
        states.set(writer.pid, runningSince(writer.pid, booted));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ESRCH') states.set(writer.pid, 'exited');
        else if (code === 'EPERM') states.set(writer.pid, runningSince(writer.pid, booted));
      }
    }
  }
  return machine;
}

/** Linux counts a process's start in clock ticks since boot; user space sees 100 a second (USER_HZ) on x86 and ARM. */
const TICKS_PER_SECOND = 100;

/** A process's start in clock ticks since boot, from its stat's 22nd field (after the name in parentheses, which may itself hold spaces and parentheses). */
function startTicks(pid: number | 'self'): number | null {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  return Number.isSafeInteger(ticks) ? ticks : null;
}

let ownTicks: number | null | undefined;

/**
 * When the system booted (epoch ms) on today's wall clock, asked at each check (the clock may have
 * been set since), the earlier of two readings: now less /proc/uptime, which counts a sleep of the
 * machine as the ticks do but which a container may show as its own; and now less this process's
 * own ticks and its uptime, which no container changes but which does not count a sleep. A boot
 * read too late would date every process later than it started and take a writer for another
 * process; read too early, a reused pid is taken for the writer, as sac takes it. Null where there
 * is no /proc.
 */
function bootTime(): number | null {
  if (ownTicks === undefined) {
    try {
      ownTicks = startTicks('self');
    } catch {
      ownTicks = null;
    }
  }
  if (ownTicks === null) return null;
  const fromOwnStart = Date.now() - process.uptime() * 1000 - (ownTicks * 1000) / TICKS_PER_SECOND;
  try {
    const uptime = Number.parseFloat(readFileSync('/proc/uptime', 'latin1'));
    return Number.isFinite(uptime) ? Math.min(fromOwnStart, Date.now() - uptime * 1000) : fromOwnStart;
  } catch {
    return fromOwnStart;
  }
}

/**
 * A running process as the core takes it: when it started where /proc tells it, else 'running';
 * 'exited' if it exited since it was asked.
 */
function runningSince(pid: number, booted: number | null): ProcessState {
  if (booted === null) return 'running';
  try {
    const ticks = startTicks(pid);
    return ticks === null ? 'running' : { startedAt: booted + (ticks * 1000) / TICKS_PER_SECOND };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'exited' : 'running';
  }
}
