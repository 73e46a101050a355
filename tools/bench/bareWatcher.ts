import { watch } from 'chokidar';

// The baseline for watching: chokidar 6 alone, in a fresh process, with the options the reader
// uses. Prints `ready`, then one `<event>\t<path>` line per event, as soon as it arrives.

const recordDir = process.argv[2];
if (recordDir === undefined) {
  process.stderr.write('usage: node bareWatcher.ts <recordDir>\n');
  process.exit(2);
}
const started = performance.now();
const watcher = watch(recordDir, { ignoreInitial: true, followSymlinks: false, depth: 1, atomic: false, persistent: true });
for (const event of ['add', 'addDir', 'change', 'unlink', 'unlinkDir'] as const) {
  watcher.on(event, (path: string) => process.stdout.write(`${event}\t${path}\n`));
}
watcher.on('error', (error: unknown) => process.stdout.write(`error\t${(error as Error).message}\n`));
watcher.on('ready', () => process.stdout.write(`ready\t${(performance.now() - started).toFixed(1)}\n`));
process.on('SIGTERM', () => void watcher.close().then(() => process.exit(0)));
