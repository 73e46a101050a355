import { readFileSync } from 'node:fs';

// What the kernel says of a process: its peak resident memory and the CPU time it has used.
// Linux only (/proc), which is where the bench runs.

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on every Linux the bench targets

/** Peak resident set size (VmHWM) in bytes, or null once the process is gone. */
export function readPeakRss(pid: number): number | null {
  return readStatusKb(pid, 'VmHWM');
}

/** Current resident set size (VmRSS) in bytes. */
export function readRss(pid: number): number | null {
  return readStatusKb(pid, 'VmRSS');
}

function readStatusKb(pid: number, field: string): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match === null ? null : Number(match[1]) * 1024;
  } catch {
    return null;
  }
}

/** User plus system CPU time used so far, in milliseconds (10 ms resolution). */
export function readCpuMs(pid: number): number | null {
  return readStatCpuMs(`/proc/${pid}/stat`);
}

/**
 * The same for the process's main thread alone (its thread id is the process id): what the
 * first answer waits for, apart from the scan threads beside it.
 */
export function readMainThreadCpuMs(pid: number): number | null {
  return readStatCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

function readStatCpuMs(path: string): number | null {
  try {
    const stat = readFileSync(path, 'utf8');
    // The command name may hold spaces; the fields after its closing parenthesis do not.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
  } catch {
    return null;
  }
}
