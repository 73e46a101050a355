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
  const child: ChildProcess = spawn(process.execPath, [script, recordDir], { stdio: ['ignore', 'ignore', 'inherit'] });
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
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timeout = setTimeout(() => child.kill('SIGKILL'), 2_000);
        await exited;
        clearTimeout(timeout);
      }
      rmSync(recordDir, { recursive: true, force: true });
    },
  };
}
