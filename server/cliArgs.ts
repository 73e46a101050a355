import { parseArgs } from 'node:util';

export const DEFAULT_PORT = 4800;

export type CliCommand =
  | { type: 'help' }
  | { type: 'version' }
  | {
      type: 'run';
      /** null: run the demo record. */
      recordDir: string | null;
      port: number;
      /** The port was not asked for, so a busy one may be replaced by the next free one. */
      portIsDefault: boolean;
      host: string;
      open: boolean | null;
      /** 'generate': a new token each start; null: no access control (`--no-token`). */
      token: string | 'generate' | null;
    }
  | { type: 'error'; message: string };

export const USAGE = `Usage: rec-dashboard [recordDir] [options]

A local, read-only dashboard over the record that Claude Code sessions write of the messages
they send each other. With no record directory it runs a demo record with live traffic.

Options:
  --port <n>     port to listen on (default ${DEFAULT_PORT}, or the next free one; 0 picks any)
  --host <h>     address to bind (default 127.0.0.1; anything else serves other machines too)
  --open         open the dashboard in a browser (the default when run in a terminal)
  --no-open      do not open a browser
  --token <t>    the access token to require (default: a new one each start, in the address)
  --no-token     require no token: anyone who can reach the address can read the record
  --demo         run the demo record (the same as giving no record directory)
  -h, --help     show this help
  -v, --version  show the version

The record directory holds one folder per session, one JSON file per entry. Nothing in it is
ever written, renamed or deleted by rec-dashboard.`;

/** Reads the command line. Bad input is an error with a message, never a throw. */
export function parseCliArgs(argv: string[]): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
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
  if (positionals.length > 1) return { type: 'error', message: `one record directory at most, not ${positionals.length}` };
  const recordDir = positionals[0] ?? null;
  if (recordDir !== null && values.demo) return { type: 'error', message: 'give a record directory or --demo, not both' };
  let port = DEFAULT_PORT;
  if (values.port !== undefined) {
    if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) {
      return { type: 'error', message: `--port takes a number from 0 to 65535, not "${values.port}"` };
    }
    port = Number(values.port);
  }
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') return { type: 'error', message: '--host takes an address, such as 127.0.0.1' };
  const token = parseToken(values['no-token'] === true ? false : (values.token as string | boolean | undefined));
  if (typeof token === 'object' && token !== null) return token;
  return { type: 'run', recordDir, port, portIsDefault: values.port === undefined, host, open: values.open ?? null, token };
}

function parseToken(value: string | boolean | undefined): string | 'generate' | null | { type: 'error'; message: string } {
  if (value === undefined || value === true) return 'generate';
  if (value === false) return null;
  // The token travels in a URL, a cookie and a header: URL-safe characters only.
  if (!/^[A-Za-z0-9._~-]{16,256}$/.test(value)) {
    return { type: 'error', message: '--token takes 16 to 256 letters, digits or . _ ~ -' };
  }
  return value;
}

function firstLine(message: string): string {
  // parseArgs explains itself at length; the first sentence is the useful one. Its full stop
  // goes too: the command puts one after every message.
  return message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '').replace(/\.$/, '');
}
