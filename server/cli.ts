import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { USAGE, parseCliArgs } from './cliArgs.ts';
import { startDashboard, type Dashboard } from './dashboard.ts';
import { createAccessToken } from './http/access.ts';
import { startDemo, type Demo } from './demo/startDemo.ts';

/**
 * How long stopping may take. Closing the dashboard cuts the connections still busy after its
 * own grace, so this is only reached if something hangs.
 */
const STOP_DEADLINE_MS = 1_900;

/** Runs the `rec-dashboard` command. Every failure is one line that says what to do. */
export async function main(argv: string[]): Promise<void> {
  const command = parseCliArgs(argv);
  switch (command.type) {
    case 'help':
      console.log(USAGE);
      return;
    case 'version':
      console.log(`rec-dashboard ${readVersion()}`);
      return;
    case 'error':
      fail(`${command.message}. Run rec-dashboard --help for usage.`, 2);
      return;
    case 'run':
      break;
  }

  let demo: Demo | null = null;
  let dashboard: Dashboard | null = null;
  // Installed before anything starts, so that an interrupt at any moment still closes the
  // server and removes the demo's temporary record.
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Whatever is attached or still going, the command ends in moments: it was asked to.
    setTimeout(() => {
      console.error('rec-dashboard: stopping took too long; exiting anyway.');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    await Promise.allSettled([dashboard?.close(), demo?.stop()]);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  let recordDir: string;
  if (command.recordDir === null) {
    demo = startDemo((code) => {
      console.error(`rec-dashboard: the demo writer stopped (exit code ${code}); the record stays as it is.`);
    });
    recordDir = demo.recordDir;
  } else {
    recordDir = resolve(command.recordDir);
    const problem = checkRecordDir(recordDir);
    if (problem !== null) fail(problem, 1);
  }

  const token = command.token === 'generate' ? createAccessToken() : command.token;
  try {
    dashboard = await startDashboard({
      recordDir,
      host: command.host,
      port: command.port,
      portFallback: command.portIsDefault,
      webRoot: findWebRoot(),
      token,
      onError: (message) => console.error(`rec-dashboard: ${message}`),
    });
  } catch (error) {
    await demo?.stop();
    const err = error as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') fail(`port ${command.port} is in use. Pick another with --port, or --port 0 for any free one.`, 1);
    if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') fail(`cannot listen on ${command.host}: no such address here. Use --host 127.0.0.1.`, 1);
    if (err.code === 'EACCES') fail(`not allowed to listen on port ${command.port}. Pick a port above 1023 with --port.`, 1);
    fail(`could not start: ${err.message}`, 1);
    return;
  }

  console.log(`rec-dashboard ${readVersion()}`);
  if (demo !== null) console.log(`Demo record with live traffic in ${recordDir} (removed on exit). Give a record directory to read yours.`);
  else console.log(`Reading ${recordDir} (read-only)${existsSync(recordDir) ? '' : '; it does not exist yet, and is waited for'}.`);
  if (dashboard.portTakenInstead !== null) console.log(`Port ${dashboard.portTakenInstead} is in use; using ${dashboard.port} instead.`);
  if (command.host !== '127.0.0.1' && command.host !== 'localhost' && command.host !== '::1') {
    console.log(`Listening on ${command.host}: other machines that reach this address can read the record.`);
  }
  if (token === null) console.log('No access token (--no-token): anyone who can reach this address can read the record.');
  else console.log('Open the address below: it carries the access token, which the browser then keeps in a cookie.');
  console.log(dashboard.url);

  if (command.open ?? (process.stdout.isTTY === true && !process.env['CI'])) openBrowser(dashboard.url);
}

/** Why a given record directory cannot be read, or null. One that does not exist is waited for. */
function checkRecordDir(recordDir: string): string | null {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(recordDir).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return `cannot look at ${recordDir}: ${(error as Error).message}`;
  }
  if (!isDirectory) return `${recordDir} is a file, not a record directory. Give the folder that holds one folder per session.`;
  try {
    accessSync(recordDir, constants.R_OK | constants.X_OK);
  } catch {
    return `${recordDir} cannot be read by this user. Run rec-dashboard as the user who owns the record.`;
  }
  return null;
}

function fail(message: string, code: number): never {
  console.error(`rec-dashboard: ${message}`);
  process.exit(code);
}

/** The package root: the folder of the nearest package.json above this file. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) return dir;
    dir = up;
  }
  return dir;
}

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

/** The built web UI, in dist/web of the package (both when run from source and installed). */
function findWebRoot(): string | null {
  const webRoot = join(packageRoot(), 'dist', 'web');
  return existsSync(join(webRoot, 'index.html')) ? webRoot : null;
}

function openBrowser(url: string): void {
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => console.log(`(Could not open a browser; open the address above.)`));
    child.unref();
  } catch {
    console.log(`(Could not open a browser; open the address above.)`);
  }
}
