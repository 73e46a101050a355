import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

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
  const lines: WatcherLine[] = [];
  const waiters = new Set<{ match: (line: WatcherLine) => boolean; resolve: (line: WatcherLine) => void }>();
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
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.delete(waiter);
          waiter.resolve(line);
        }
      }
    });
  });
  return {
    pid: child.pid!,
    lines,
    readyMs,
    next(match, timeoutMs = 10_000) {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter)) reject(new Error('no matching watcher event'));
        }, timeoutMs).unref();
      });
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
