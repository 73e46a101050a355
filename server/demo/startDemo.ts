import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoreSpec } from '../sources/kinds.ts';

export type Demo = {
  /** The demo's temporary folder, which holds every store it writes. */
  dir: string;
  stores: StoreSpec[];
  stop(): Promise<void>;
};

/**
 * Makes a temporary folder for the demo's stores and starts the demo writer in a process of its
 * own, as a session's plugin would be: the dashboard only reads what it writes. stop() ends the
 * writer and removes the folder, which belongs to the demo and not to any person.
 */
export function startDemo(onExit: (code: number | null) => void): Demo {
  const dir = mkdtempSync(join(tmpdir(), 'rec-dashboard-demo-'));
  const recordDir = join(dir, 'record');
  const spexHome = join(dir, 'spex');
  const sacRoot = join(dir, 'sac');
  const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  const script = fileURLToPath(new URL(`./demoTraffic${ext}`, import.meta.url));
  // The IPC channel is how the writer learns that the dashboard is gone, however it went (even
  // SIGKILL, which the dashboard cannot act on): the channel closes, and the writer stops and
  // removes the temporary folder (--temporary), as nobody else is left to.
  const child: ChildProcess = spawn(process.execPath, [script, recordDir, '--spex', spexHome, '--sac', sacRoot, '--temporary'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code) => {
      if (!stopping) onExit(code);
      resolve();
    });
    // Not started at all (no Node at this one's path any more): told as stopped, with no exit
    // code. Unheard, the 'error' event would end the command; and no 'exit' follows it.
    child.on('error', () => {
      // Started, its end is told by 'exit'; a signal or message that failed to reach it changes nothing.
      if (child.pid !== undefined) return;
      if (!stopping) onExit(null);
      resolve();
    });
  });
  return {
    dir,
    stores: [
      { kind: 'record', root: recordDir },
      { kind: 'spex', root: spexHome },
      { kind: 'sac', root: sacRoot },
    ],
    async stop() {
      stopping = true;
      // The record is removed next, so a write cut short harms nobody: the writer is not given
      // time to finish one, which would hold up the dashboard's stop by a slow write's length.
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
