import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_PORT, TEST_PENDING_WINDOW_ENV, TOKEN_ENV, USAGE, parseCliArgs, type CliCommand } from './cliArgs.ts';

// The command line, read without starting anything: every flag and every way to get it wrong.

type Run = Extract<CliCommand, { type: 'run' }>;

function runOf(argv: string[]): Run {
  const command = parseCliArgs(argv);
  assert.equal(command.type, 'run', `${argv.join(' ')}: ${JSON.stringify(command)}`);
  return command as Run;
}

function errorOf(argv: string[]): string {
  const command = parseCliArgs(argv);
  assert.equal(command.type, 'error', `${argv.join(' ')}: ${JSON.stringify(command)}`);
  return (command as Extract<CliCommand, { type: 'error' }>).message;
}

describe('the command line', () => {
  it('with nothing given, the demo runs on the default port, bound to 127.0.0.1, with a new token, opening a browser if a terminal says so', () => {
    assert.deepEqual(parseCliArgs([]), {
      type: 'run',
      dirs: [],
      named: [],
      port: DEFAULT_PORT,
      portIsDefault: true,
      host: '127.0.0.1',
      open: null,
      token: 'generate',
      searchBudgetMs: null,
      pendingWindowMs: null,
    });
  });

  it(`${TEST_PENDING_WINDOW_ENV}, for tests, shortens the pending window to whole milliseconds from 1 to 10,000; unset or empty keeps the product's`, () => {
    const withEnv = (value: string | undefined) => parseCliArgs(['/tmp/record'], { [TEST_PENDING_WINDOW_ENV]: value });
    assert.equal(runOf(['/tmp/record']).pendingWindowMs, null);
    assert.equal((withEnv(undefined) as Run).pendingWindowMs, null);
    assert.equal((withEnv('') as Run).pendingWindowMs, null);
    assert.equal((withEnv('3000') as Run).pendingWindowMs, 3_000);
    assert.equal((withEnv('1') as Run).pendingWindowMs, 1);
    assert.equal((withEnv('10000') as Run).pendingWindowMs, 10_000);
    for (const value of ['0', '10001', '3s', '3.5', '-1', '1e3', ' 3000', 'ten']) {
      assert.deepEqual(withEnv(value), { type: 'error', message: `${TEST_PENDING_WINDOW_ENV} takes whole milliseconds from 1 to 10000, not "${value}"` }, value);
    }
    assert.deepEqual(parseCliArgs(['--help'], { [TEST_PENDING_WINDOW_ENV]: 'ten' }), { type: 'help' });
  });

  it('--search-budget takes seconds, from a thousandth to 600, and nothing else', () => {
    assert.equal(runOf(['--search-budget', '3']).searchBudgetMs, 3_000);
    assert.equal(runOf(['--search-budget=0.05']).searchBudgetMs, 50);
    assert.equal(runOf(['--search-budget', '600']).searchBudgetMs, 600_000);
    for (const value of ['0', '601', '', 'ten', '-1', '1e3', '0.0001', ' 3']) {
      assert.equal(errorOf([`--search-budget=${value}`]), `--search-budget takes seconds from 0.001 to 600, not "${value}"`, value);
    }
  });

  it('the positionals are directories, kept as given and in order; after -- one may begin with a dash', () => {
    assert.deepEqual(runOf(['/tmp/my record']).dirs, ['/tmp/my record']);
    assert.deepEqual(runOf(['a', 'b', 'c']).dirs, ['a', 'b', 'c']);
    assert.deepEqual(runOf(['--', '--odd-dir']).dirs, ['--odd-dir']);
  });

  it('--spex and --sac name a store of their kind, with a directory or none (the default place)', () => {
    assert.deepEqual(runOf(['--spex', '/h', '--sac']).named, [{ kind: 'spex', dir: '/h' }, { kind: 'sac', dir: null }]);
    assert.deepEqual(runOf(['--sac=/s', '--spex', '--port', '0']).named, [{ kind: 'sac', dir: '/s' }, { kind: 'spex', dir: null }]);
    assert.deepEqual(runOf(['--', '--spex']).dirs, ['--spex']);
  });

  it('--demo is the same as giving no directory, and giving both is an error', () => {
    assert.deepEqual(runOf(['--demo']).dirs, []);
    assert.equal(errorOf(['--demo', '/tmp/record']), 'give directories or --demo, not both');
    assert.equal(errorOf(['--demo', '--spex']), 'give directories or --demo, not both');
  });

  it('--port takes 0 to 65535, and a port asked for is never replaced by another', () => {
    assert.deepEqual([runOf(['--port', '0']).port, runOf(['--port', '0']).portIsDefault], [0, false]);
    assert.equal(runOf(['--port=65535']).port, 65535);
    assert.deepEqual([runOf(['--port', String(DEFAULT_PORT)]).port, runOf(['--port', String(DEFAULT_PORT)]).portIsDefault], [DEFAULT_PORT, false]);
    for (const value of ['65536', 'eighty', '', ' 80', '1e3', '80.5', '0x50', '999999']) {
      assert.equal(errorOf(['--port', value]), `--port takes a number from 0 to 65535, not "${value}"`, value);
    }
  });

  it('--host takes the address to bind, and an empty one is an error', () => {
    assert.equal(runOf(['--host', '0.0.0.0']).host, '0.0.0.0');
    assert.equal(runOf(['--host', '::1']).host, '::1');
    assert.equal(errorOf(['--host', '']), '--host takes an address, such as 127.0.0.1');
    assert.equal(errorOf(['--host=  ']), '--host takes an address, such as 127.0.0.1');
  });

  it('--open and --no-open decide whether a browser opens, the last one given winning', () => {
    assert.equal(runOf(['--open']).open, true);
    assert.equal(runOf(['--no-open']).open, false);
    assert.equal(runOf(['--open', '--no-open']).open, false);
    assert.equal(runOf(['--no-open', '--open']).open, true);
  });

  it('--token sets a token of 16 to 256 URL-safe characters, --no-token turns it off, the last one given winning', () => {
    const token = 'A-z_0.9~abcdefgh';
    assert.equal(runOf(['--token', token]).token, token);
    assert.equal(runOf([`--token=${'t'.repeat(256)}`]).token, 't'.repeat(256));
    assert.equal(runOf(['--no-token']).token, null);
    assert.equal(runOf(['--token', token, '--no-token']).token, null);
    assert.equal(runOf(['--no-token', '--token', token]).token, token);
    for (const value of ['short', 't'.repeat(15), 't'.repeat(257), 'sixteen chars ok', 'slash/in/the/token', 'percent%20token0', '']) {
      assert.equal(errorOf([`--token=${value}`]), '--token takes 16 to 256 letters, digits or . _ ~ -', value);
    }
    assert.match(USAGE, /--token <t> +the access token to require: 16 to 256 letters, digits or \. _ ~ -/, 'the help says what a token may be');
  });

  it('the token may come from REC_DASHBOARD_TOKEN, out of other users\' sight; --token and --no-token win over it', () => {
    const token = 'from-the-environment-0123';
    const run = (argv: string[], value: string) => {
      const command = parseCliArgs(argv, { [TOKEN_ENV]: value });
      return command.type === 'run' ? command.token : command;
    };
    assert.equal(run([], token), token);
    assert.equal(run(['--token', 'from-the-command-line'], token), 'from-the-command-line');
    assert.equal(run(['--no-token'], token), null);
    assert.deepEqual(run([], 'short'), { type: 'error', message: `${TOKEN_ENV} takes 16 to 256 letters, digits or . _ ~ -` });
    assert.match(USAGE, new RegExp(`\\$${TOKEN_ENV}`), 'the help names it');
  });

  it('--help and --version are answered whatever else is given, in long and short form', () => {
    assert.deepEqual(parseCliArgs(['--help']), { type: 'help' });
    assert.deepEqual(parseCliArgs(['-h', 'a', 'b', '--port', 'eighty']), { type: 'help' });
    assert.deepEqual(parseCliArgs(['--version']), { type: 'version' });
    assert.deepEqual(parseCliArgs(['/tmp/record', '-v']), { type: 'version' });
  });

  it('a flag it does not know, or one without its value, is an error in a sentence of its own', () => {
    assert.equal(errorOf(['--bogus']), "Unknown option '--bogus'");
    assert.equal(errorOf(['-x']), "Unknown option '-x'");
    assert.equal(errorOf(['--port']), "Option '--port <value>' argument missing");
    assert.equal(errorOf(['--token']), "Option '--token <value>' argument missing");
    assert.equal(errorOf(['--help=yes']), "Option '-h, --help' does not take an argument");
  });

  it('every error is one sentence without its full stop, which the command adds after it', () => {
    const bad = [['--bogus'], ['--port'], ['--port', '-1'], ['--token', '-starts-with-a-dash'], ['--help=yes'], ['--port', 'x'], ['--host', ''], ['--token=short'], ['--demo', 'a']];
    for (const argv of bad) {
      const message = errorOf(argv);
      assert.match(message, /^[^\n]*[^.\n]$/, `${argv.join(' ')}: ${JSON.stringify(message)}`);
    }
    assert.equal(errorOf(['--port', '-1']), "Option '--port' argument is ambiguous");
  });
});
