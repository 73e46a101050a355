import { readFileSync, readdirSync } from 'node:fs';

// Which processes a command left running, read from Linux's /proc, where the tests run.

type ProcessStat = { pid: number; state: string; ppid: number };

function readStat(pid: number): ProcessStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name may hold spaces and parentheses: the fields after it follow the last ')'.
  const [state = '', ppid = ''] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { pid, state, ppid: Number(ppid) };
}

/** The processes whose parent is `pid`. */
export function childPidsOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat !== null && stat.ppid === pid) children.push(stat.pid);
  }
  return children;
}

/** False once the process has ended, including as a zombie that nobody has reaped yet. */
export function isRunning(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
}

/** A thread of this process's nice value, as the kernel keeps it (its stat's 19th field); null once it has ended. */
export function readThreadNiceness(threadId: number | string): number | null {
  let text: string;
  try {
    text = readFileSync(`/proc/self/task/${threadId}/stat`, 'utf8');
  } catch {
    return null;
  }
  return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[16]);
}
