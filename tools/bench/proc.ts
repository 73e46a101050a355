import { readFileSync, readdirSync } from 'node:fs';

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

/** One thread of a process: its id, its name as the system has it (comm), and the CPU it has used. */
export type ThreadCpu = { tid: number; name: string; cpuMs: number };

/** Every live thread of the process with its CPU so far; an empty list once the process is gone. */
export function readThreadsCpuMs(pid: number): ThreadCpu[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const threads: ThreadCpu[] = [];
  for (const tid of tids) {
    const cpuMs = readStatCpuMs(`/proc/${pid}/task/${tid}/stat`);
    let name: string;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (cpuMs !== null) threads.push({ tid: Number(tid), name, cpuMs });
  }
  return threads;
}
