import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Demo = { recordDir: string; stop(): Promise<void> };

/**
 * Makes a temporary record and starts the demo writer in a process of its own, as a session's
 * plugin would be: the dashboard only reads what it writes. stop() ends the writer and removes
 * the temporary record, which belongs to the demo and not to any person.
 */
export function startDemo(onExit: (code: number | null) => void): Demo {
  const recordDir = mkdtempSync(join(tmpdir(), 'rec-dashboard-demo-'));
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const script = fileURLToPath(new URL(`./demoTraffic${ext}`, import.meta.url));
  // The IPC channel is how the writer learns that the dashboard is gone, however it went (even
  // SIGKILL, which the dashboard cannot act on): the channel closes, and the writer stops and
  // removes the temporary record (--temporary), as nobody else is left to.
  const child: ChildProcess = spawn(process.execPath, [script, recordDir, '--temporary'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code) => {
      if (!stopping) onExit(code);
      resolve();
    });
  });
  return {
    recordDir,
    async stop() {
      stopping = true;
      // The record is removed next, so a write cut short harms nobody: the writer is not given
      // time to finish one, which would hold up the dashboard's stop by a slow write's length.
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(recordDir, { recursive: true, force: true });
    },
  };
}
