import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The command as a person runs it, from source (the published one is built from the same files). */
export const BIN = fileURLToPath(new URL('../bin.ts', import.meta.url));

export type RunningCommand = {
  child: ChildProcess;
  /** The address as printed, with the access token when there is one. */
  url: string;
  token: string | null;
  /** GETs a path of the dashboard as an API client does, with the token as a bearer token. */
  get(path: string, init?: RequestInit): Promise<Response>;
  stdout: string[];
  stderr: () => string;
  exited: Promise<number | null>;
};

/** Runs the command to its end and returns what it printed. */
export function runCommand(args: string[], options: { nodeArgs?: string[]; timeoutMs?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // Only a bound on a command that hangs, as startCommand's: on a loaded two-core runner a
    // command that ends at once has taken more than 10 s to load.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the command did not end: ${stdout} ${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Run as root, a process reads every file whatever its mode. This prefix runs the command
 * without the capabilities that allow it, so permissions bite as they do for a person.
 */
export const WITHOUT_ROOT_READ = process.getuid?.() === 0 ? ['setpriv', '--bounding-set', '-dac_override,-dac_read_search', '--'] : [];

/** Starts the command and resolves once it prints the address to open; `env` adds to the environment. */
export function startCommand(args: string[], bin = BIN, prefix: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<RunningCommand> {
  return new Promise((resolve, reject) => {
    const [program, ...programArgs] = [...prefix, process.execPath, bin, ...args] as [string, ...string[]];
    const child = spawn(program, programArgs, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1', ...env } });
    const stdout: string[] = [];
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    void exited.then((code) => reject(new Error(`the command exited (${code}) before printing its address: ${stderr}`)));
    // Only a bound on a command that hangs: a loaded two-core runner has taken 13 s to start it.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no address printed: ${stdout.join('\n')} ${stderr}`));
    }, 60_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      stdout.push(line);
      if (/^http:\/\/\S+$/.test(line)) {
        clearTimeout(timer);
        const token = new URL(line).searchParams.get('token');
        const get = (path: string, init: RequestInit = {}) =>
          fetch(new URL(path, line), { ...init, headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(init.headers as Record<string, string>) } });
        resolve({ child, url: line, token, get, stdout, stderr: () => stderr, exited });
      }
    });
  });
}

/** Starts the command with a module of server/test preloaded (`--import`), which prints on its stdout what the test reads. */
export function startCommandTelling(preload: string, args: string[], bin = BIN): Promise<RunningCommand> {
  return startCommand(args, bin, [], { NODE_OPTIONS: `--import=${new URL(`./${preload}`, import.meta.url).href}` });
}
