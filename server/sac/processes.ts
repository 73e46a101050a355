import { readFileSync } from 'node:fs';
import type { ProcessState } from '../../shared/sac/liveness.ts';
import type { StoreFacts } from '../../shared/sac/storeFiles.ts';

// Whether the registry's writer pids run on this machine, for liveness derived as sac derives it,
// and, where the system tells it, when each running one started: a pid is reused once its process
// exits, and the core tells a later process from the writer by that time.

/**
 * Which writers' pids are running on this machine. Signal 0 sends nothing: it only asks. A remote
 * seat's pids are another machine's: not asked.
 */
export function checkProcesses(store: StoreFacts): Map<number, ProcessState> {
  const states = new Map<number, ProcessState>();
  if (store.registry.state !== 'read') return states;
  for (const seat of store.registry.facts.seats) {
    if (seat.remote) continue;
    for (const writer of seat.writers) {
      if (writer.pid === null || states.has(writer.pid)) continue;
      try {
        process.kill(writer.pid, 0);
        states.set(writer.pid, runningSince(writer.pid));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ESRCH') states.set(writer.pid, 'exited');
        else if (code === 'EPERM') states.set(writer.pid, runningSince(writer.pid));
      }
    }
  }
  return states;
}

/** Linux counts a process's start in clock ticks since boot; user space sees 100 a second on every architecture it runs on. */
const TICKS_PER_SECOND = 100;

let bootedAt: number | null | undefined;

/** When the system booted (epoch ms), from /proc/stat's btime; null where there is no /proc. */
function bootTime(): number | null {
  if (bootedAt === undefined) {
    try {
      const line = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'latin1'));
      bootedAt = line === null ? null : Number(line[1]) * 1000;
    } catch {
      bootedAt = null;
    }
  }
  return bootedAt;
}

/**
 * A running process as the core takes it: when it started where /proc tells it (its stat's 22nd
 * field, after the name in parentheses, which may itself hold spaces and parentheses), else 'running'.
 */
function runningSince(pid: number): ProcessState {
  const booted = bootTime();
  if (booted === null) return 'running';
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isSafeInteger(ticks) ? { startedAt: booted + (ticks * 1000) / TICKS_PER_SECOND } : 'running';
  } catch {
    return 'running';
  }
}
