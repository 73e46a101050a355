import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createArrivals } from '../../server/test/arrivals.ts';

export type WatcherLine = { at: number; event: string; path: string };

export type BareWatcher = {
  pid: number;
  lines: WatcherLine[];
  /** How long chokidar took to walk the record, as it measured itself. */
  readyMs: number;
  next(match: (line: WatcherLine) => boolean, timeoutMs?: number): Promise<WatcherLine>;
  stop(): Promise<void>;
};

const SCRIPT = fileURLToPath(new URL('./bareWatcher.ts', import.meta.url));

/** Starts a bare chokidar watcher in a fresh process and resolves once it is ready. */
export async function startBareWatcher(recordDir: string): Promise<BareWatcher> {
  const child = spawn(process.execPath, [SCRIPT, recordDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createArrivals<WatcherLine>('no matching watcher event');
  let readyMs = 0;
  await new Promise<void>((resolve, reject) => {
    void exited.then(() => reject(new Error('the bare watcher exited')));
    createInterface({ input: child.stdout! }).on('line', (text) => {
      const at = performance.now();
      const tab = text.indexOf('\t');
      const line = { at, event: text.slice(0, tab), path: text.slice(tab + 1) };
      if (line.event === 'ready') {
        readyMs = Number(line.path);
        resolve();
        return;
      }
      lines.push(line);
    });
  });
  return {
    pid: child.pid!,
    lines: lines.items,
    readyMs,
    next: (match, timeoutMs = 10_000) => lines.next(match, timeoutMs),
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
