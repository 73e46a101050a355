import { readFileSync } from 'node:fs';

// Fresh memory: the pages a process touched for the first time, told by its minor page faults
// (/proc/<pid>/stat, every thread of it counted, ended ones too), and what one costs on this
// machine. On a virtual machine a first touch can cost tens of microseconds, so a process that
// keeps, or grows its heap to, more memory than a plain read pays for it by the page, whatever its
// code does (docs/performance.md). JavaScript, as storageReads.mjs is: the plain reads and the
// measured processes that load it load no type stripper.

/** The minor page faults the process `pid` (this one by default) has taken so far; null where Linux does not say, or once it is gone. */
export function readMinorFaults(pid = 'self') {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces; the fields after its closing parenthesis do not (minflt is the 10th field).
    const minflt = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7]);
    return Number.isFinite(minflt) ? minflt : null;
  } catch {
    return null;
  }
}

/**
 * What a page's first touch costs here: a new buffer of `mb` MB filled once (every page fresh)
 * and again (none), three times; the difference a fault, at the median. Run in a fresh process
 * (`node freshPages.mjs`), whose heap is not yet grown.
 */
function measurePageCost(mb = 64) {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const bytes = new Uint8Array(new ArrayBuffer(mb * 2 ** 20));
    const before = readMinorFaults();
    let started = performance.now();
    bytes.fill(1);
    const firstMs = performance.now() - started;
    const faults = (readMinorFaults() ?? 0) - (before ?? 0);
    started = performance.now();
    bytes.fill(2);
    const againMs = performance.now() - started;
    runs.push({ faults, firstMs, againMs, usPerPage: faults > 0 ? ((firstMs - againMs) * 1000) / faults : Number.NaN });
  }
  runs.sort((a, b) => a.usPerPage - b.usPerPage);
  return { mb, ...runs[1] };
}

if (import.meta.main) process.stdout.write(`${JSON.stringify(measurePageCost())}\n`);
