import { parseArgs } from 'node:util';
import { PENDING_WINDOW_MS } from '../shared/evidence.ts';
import type { SourceKind } from '../shared/wire/common.ts';
import { STORE_KINDS } from './sources/kinds.ts';

export const DEFAULT_PORT = 4800;

/**
 * For tests of the built command only: the pending window its readers keep, in whole milliseconds,
 * shorter than the product's 10 s (PENDING_WINDOW_MS), for a test that waits for a write cut short
 * to turn damaged. Not in the usage: a person's dashboard always keeps the product's window.
 */
export const TEST_PENDING_WINDOW_ENV = 'REC_DASHBOARD_TEST_PENDING_WINDOW_MS';

/**
 * The access token, from the environment: a process's arguments are readable by every user of
 * the machine (`ps`, `/proc/<pid>/cmdline`), its environment only by its own. `--token` and
 * `--no-token` win over it.
 */
export const TOKEN_ENV = 'REC_DASHBOARD_TOKEN';

export type CliCommand =
  | { type: 'help' }
  | { type: 'version' }
  | {
      type: 'run';
      /** Directories given as they are, each of a kind recognised by what it holds. */
      dirs: string[];
      /** Stores named by kind (`--spex [DIR]`, `--sac [DIR]`); dir null: the kind's default place. */
      named: NamedStore[];
      port: number;
      /** The port was not asked for, so a busy one may be replaced by the next free one. */
      portIsDefault: boolean;
      host: string;
      open: boolean | null;
      /** 'generate': a new token each start; null: no access control (`--no-token`). */
      token: string | 'generate' | null;
      /** `--search-budget`: a search's thread time before it answers with what it found; null: the default. */
      searchBudgetMs: number | null;
      /** From TEST_PENDING_WINDOW_ENV, in tests; null: the product's pending window. */
      pendingWindowMs: number | null;
    }
  | { type: 'error'; message: string };

type NamedStore = { kind: SourceKind; dir: string | null };

/** The usage's lines for the kinds: what each holds, and the option that names a store of it. */
const KIND_LINES = [...STORE_KINDS].reverse().map((kind) => `  ${kind.holds.name.padEnd(25)} ${kind.holds.what}${kind.kind === 'record' ? ' (or nothing yet)' : ''}`).join('\n');
const OPTION_LINES = STORE_KINDS.flatMap((kind) => (kind.option === undefined ? [] : [kind.option]))
  .reverse()
  .map((option) => wrapOption(`--${option.name} [DIR]`, option.help))
  .join('\n');

/** An option's line of the usage, its help wrapped under itself at 100 columns. */
function wrapOption(name: string, help: string): string {
  const indent = ' '.repeat(17);
  const lines: string[] = [];
  let line = `  ${name.padEnd(14)} `;
  for (const word of help.split(' ')) {
    if (line.length + word.length > 100 && line.trim() !== '') {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

export const USAGE = `Usage: rec-dashboard [DIR...] [options]

A local, read-only dashboard over the messages Claude Code sessions send each other, as three
stores keep them: the record, spex session timelines and set-agent-comm channels. Each DIR is
recognised by what it holds:
${KIND_LINES}
With no directory it runs a demo that fills one store of each kind with live traffic.

Options:
${OPTION_LINES}
  --port <n>     port to listen on (default ${DEFAULT_PORT}, or the next free one; 0 picks any)
  --host <h>     address to bind (default 127.0.0.1; anything else serves other machines too)
  --open         open the dashboard in a browser (the default when run in a terminal)
  --no-open      do not open a browser
  --token <t>    the access token to require: 16 to 256 letters, digits or . _ ~ -
                 (default: $${TOKEN_ENV} if set, else a new one each start, in the address;
                 the environment keeps it from other users, the command line does not)
  --no-token     require no token: anyone who can reach the address can read the stores
  --search-budget <s>
                 seconds a search may read and match before it answers with what it found and
                 says how far it got (default 3)
  --demo         run the demo (the same as giving no directory)
  -h, --help     show this help
  -v, --version  show the version

Nothing in any store is ever written, renamed or deleted by rec-dashboard; set-agent-comm's
relays.json and http-tokens.json are never opened.`;

/** Reads the command line (and a test's environment). Bad input is an error with a message, never a throw. */
export function parseCliArgs(argv: string[], env: Readonly<Record<string, string | undefined>> = {}): CliCommand {
  const { rest, named } = takeNamedStores(argv);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      allowNegative: true,
      strict: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        open: { type: 'boolean' },
        // A string option that `--no-token` turns off: with 'no-token' declared, parseArgs gives
        // token: false for it.
        token: { type: 'string' },
        'no-token': { type: 'boolean' },
        'search-budget': { type: 'string' },
        demo: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    return { type: 'error', message: firstLine((error as Error).message) };
  }
  const { values, positionals } = parsed;
  if (values.help) return { type: 'help' };
  if (values.version) return { type: 'version' };
  if ((positionals.length > 0 || named.length > 0) && values.demo) return { type: 'error', message: 'give directories or --demo, not both' };
  let port = DEFAULT_PORT;
  if (values.port !== undefined) {
    if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) {
      return { type: 'error', message: `--port takes a number from 0 to 65535, not "${values.port}"` };
    }
    port = Number(values.port);
  }
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') return { type: 'error', message: '--host takes an address, such as 127.0.0.1' };
  const fromEnv = env[TOKEN_ENV];
  const given = values['no-token'] === true ? false : (values.token as string | boolean | undefined);
  const token = given === undefined && fromEnv !== undefined ? parseToken(fromEnv, TOKEN_ENV) : parseToken(given, '--token');
  if (typeof token === 'object' && token !== null) return token;
  let searchBudgetMs: number | null = null;
  const budget = values['search-budget'];
  if (budget !== undefined) {
    const seconds = /^\d{1,3}(\.\d{1,3})?$/.test(budget) ? Number(budget) : NaN;
    if (!(seconds > 0 && seconds <= 600)) return { type: 'error', message: `--search-budget takes seconds from 0.001 to 600, not "${budget}"` };
    searchBudgetMs = seconds * 1000;
  }
  let pendingWindowMs: number | null = null;
  const window = env[TEST_PENDING_WINDOW_ENV];
  if (window !== undefined && window !== '') {
    pendingWindowMs = /^\d{1,5}$/.test(window) ? Number(window) : NaN;
    if (!(pendingWindowMs >= 1 && pendingWindowMs <= PENDING_WINDOW_MS)) {
      return { type: 'error', message: `${TEST_PENDING_WINDOW_ENV} takes whole milliseconds from 1 to ${PENDING_WINDOW_MS}, not "${window}"` };
    }
  }
  return { type: 'run', dirs: positionals, named, port, portIsDefault: values.port === undefined, host, open: values.open ?? null, token, searchBudgetMs, pendingWindowMs };
}

/**
 * A kind's option (`--spex`, `--sac`: server/sources/kinds.ts) takes a directory or none (the
 * kind's default place), which parseArgs cannot say: they are taken out first. The next argument
 * is theirs unless it is an option. After `--` everything is a directory.
 */
function takeNamedStores(argv: string[]): { rest: string[]; named: NamedStore[] } {
  const rest: string[] = [];
  const named: NamedStore[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(arg);
    const kind = match === null ? undefined : STORE_KINDS.find((candidate) => candidate.option?.name === match[1])?.kind;
    if (match === null || kind === undefined) {
      rest.push(arg);
      continue;
    }
    if (match[2] !== undefined) {
      named.push({ kind, dir: match[2] });
    } else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) {
      named.push({ kind, dir: argv[++i]! });
    } else {
      named.push({ kind, dir: null });
    }
  }
  return { rest, named };
}

function parseToken(value: string | boolean | undefined, from: string): string | 'generate' | null | { type: 'error'; message: string } {
  if (value === undefined || value === true) return 'generate';
  if (value === false) return null;
  // The token travels in a URL, a cookie and a header: URL-safe characters only.
  if (!/^[A-Za-z0-9._~-]{16,256}$/.test(value)) {
    return { type: 'error', message: `${from} takes 16 to 256 letters, digits or . _ ~ -` };
  }
  return value;
}

function firstLine(message: string): string {
  // parseArgs explains itself at length; the first sentence is the useful one. Its full stop
  // goes too: the command puts one after every message.
  return message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '').replace(/\.$/, '');
}
