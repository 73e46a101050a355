import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';

import { sessionsResponseSchema } from '../../shared/wire/conversations.ts';
import { DEFAULT_PORT } from '../cliArgs.ts';
import { runCommand, startCommand, startCommandTelling } from './command.ts';
import { eventually, makeTempRecord } from './harness.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';

function listenOn(port: number): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('the rec-dashboard command', () => {
  it('--help shows the usage and --version the version', async () => {
    const help = await runCommand(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: rec-dashboard \[DIR\.\.\.\]/);
    const version = await runCommand(['--version']);
    assert.match(version.stdout, /^rec-dashboard \d+\.\d+\.\d+\n$/);
  });

  for (const [args, message] of [
    [['--bogus'], /^rec-dashboard: Unknown option '--bogus'\. Run rec-dashboard --help for usage\.\n$/],
    [['--port', 'eighty'], /^rec-dashboard: --port takes a number from 0 to 65535, not "eighty"\. Run rec-dashboard --help for usage\.\n$/],
    [['--demo', 'a'], /^rec-dashboard: give directories or --demo, not both\. Run rec-dashboard --help for usage\.\n$/],
  ] as const) {
    it(`a bad command line (${args.join(' ')}) gets a one-line error and exit code 2`, async () => {
      const result = await runCommand([...args]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
    });
  }

  it('a file given as the record directory gets a one-line error that says what to give', async () => {
    const record = makeTempRecord();
    const file = join(record.dir, 'not-a-folder');
    writeFileSync(file, '');
    const result = await runCommand([file, '--port', '0']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^rec-dashboard: .* is a file, not a store directory\. Give the folder of a record \(session folders of <time>-<seq>\.json files\), a spex home .*\n$/);
    record.remove();
  });

  it('a folder that holds stores, or one inside a store, gets an error that names the store to give', async () => {
    const parent = makeTempRecord();
    const sac = join(parent.dir, 'sac-store');
    mkdirSync(join(sac, 'channels', 'team'), { recursive: true });
    writeFileSync(join(sac, 'registry.json'), '{}');
    writeFileSync(join(sac, 'channels', 'team', 'notes.txt'), 'not a seat file');
    try {
      const holding = await runCommand([parent.dir, '--port', '0']);
      assert.equal(holding.code, 1);
      assert.match(holding.stderr, /^rec-dashboard: .* holds none of: .*\. Inside it, sac-store\/ holds a set-agent-comm store: give that folder\.\n$/);
      const inside = await runCommand([join(sac, 'channels'), '--port', '0']);
      assert.equal(inside.code, 1);
      assert.equal(inside.stderr.endsWith(` It is inside a set-agent-comm store, ${sac}: give that folder.\n`), true, inside.stderr);
    } finally {
      parent.remove();
    }
  });

  it('a record directory whose folder does not exist either is still waited for, and the command asks whether the path is right', async () => {
    const parent = makeTempRecord();
    const typo = join(parent.dir, 'no-such-folder', 'record');
    const running = await startCommand([typo, '--port', '0']);
    try {
      assert.ok(running.stdout.includes(`Reading the record ${typo} (read-only); it does not exist yet, nor does ${dirname(typo)}: is the path right? It is waited for.`), running.stdout.join('\n'));
    } finally {
      running.child.kill('SIGTERM');
    }
    assert.equal(await running.exited, 0);
    parent.remove();
  });

  it('a kind’s default place that does not exist is waited for without asking whether a path nobody typed is right', async () => {
    const home = makeTempRecord('rec-test-home-');
    const running = await startCommand(['--sac', '--port', '0'], undefined, [], { HOME: home.dir, XDG_DATA_HOME: '', SET_AGENT_COMM_DIR: '' });
    try {
      const line = running.stdout.find((printed) => printed.startsWith('Reading the set-agent-comm store'));
      assert.ok(line?.endsWith('; it does not exist yet, and is waited for.'), running.stdout.join('\n'));
    } finally {
      running.child.kill('SIGTERM');
    }
    assert.equal(await running.exited, 0);
    home.remove();
  });

  it('an older Node is refused with one line, before anything else runs, that says where to get a newer one', async () => {
    const result = await runCommand(['--version'], { nodeArgs: ['--import', 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.19.0"})'] });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^rec-dashboard: needs Node\.js 22\.22 or newer, and this is v\d[^\n]*\n$/);
    assert.match(result.stderr, /https:\/\/nodejs\.org\/en\/download/);
    assert.match(result.stderr, /nvm install 24/);
  });

  it('prints the address on a line of its own, serves the record, and exits cleanly on SIGTERM', async () => {
    const record = makeTempRecord();
    const running = await startCommand([record.dir, '--port', '0']);
    try {
      assert.match(running.stdout.join('\n'), /Reading .* \(read-only\)\./);
      const list = recordSessionsResponseSchema.parse(await (await running.get('/api/sessions')).json());
      assert.equal(list.sources[0]!.root, record.dir);
      assert.match(new URL(running.url).hostname, /^127\.0\.0\.1$/);
    } finally {
      running.child.kill('SIGTERM');
    }
    assert.equal(await running.exited, 0);
    record.remove();
  });

  it('prints the address before it loads the server, and a request sent at once is held and answered once the server has loaded', async () => {
    const record = makeTempRecord();
    const running = await startCommandTelling('tellModuleLoads.ts', [record.dir, '--port', '0']);
    try {
      const response = await running.get('/api/sessions');
      assert.equal(response.status, 200);
      const list = recordSessionsResponseSchema.parse(await response.json());
      assert.equal(list.sources[0]!.root, record.dir);
      const printed = running.stdout;
      assert.ok(printed.includes('(loading server/dashboard.ts)'), printed.join('\n'));
      assert.ok(printed.indexOf(running.url) < printed.indexOf('(loading server/dashboard.ts)'), printed.join('\n'));
    } finally {
      running.child.kill('SIGTERM');
    }
    assert.equal(await running.exited, 0);
    record.remove();
  });

  it('SIGINT (Ctrl-C) stops it cleanly too', async () => {
    const record = makeTempRecord();
    const running = await startCommand([record.dir, '--port', '0']);
    running.child.kill('SIGINT');
    assert.equal(await running.exited, 0);
    assert.equal(running.stderr(), '');
    record.remove();
  });

  it('--open gives the browser no token in its arguments: a page only its owner reads sends it on, and is removed on exit', async () => {
    const record = makeTempRecord();
    const bin = makeTempRecord('rec-test-opener-');
    const told = join(bin.dir, 'told');
    // An opener as the command finds it on PATH, which writes down the arguments it was given.
    writeFileSync(join(bin.dir, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${told}.part' && mv '${told}.part' '${told}'\n`, { mode: 0o755 });
    const running = await startCommand([record.dir, '--port', '0', '--open'], undefined, [], { PATH: `${bin.dir}:${process.env['PATH']}` });
    let page: string | undefined;
    try {
      [page] = (await eventually(() => (existsSync(told) ? readFileSync(told, 'utf8') : undefined), 'the opener to run')).trimEnd().split('\n');
      assert.ok(running.token !== null);
      assert.doesNotMatch(page!, new RegExp(running.token), 'the token is not in the opener\'s arguments');
      assert.equal(statSync(page!).mode & 0o777, 0o600);
      assert.equal(statSync(dirname(page!)).mode & 0o777, 0o700);
      assert.match(readFileSync(page!, 'utf8'), new RegExp(`http-equiv="refresh" content="0;url=${running.url.replaceAll('.', '\\.').replace('?', '\\?')}"`));
    } finally {
      running.child.kill('SIGINT');
    }
    assert.equal(await running.exited, 0);
    assert.equal(existsSync(dirname(page!)), false, 'the page is removed on exit');
    record.remove();
    bin.remove();
  });

  it('a port asked for that is in use gets a one-line error', async () => {
    const blocker = await listenOn(0);
    const port = (blocker!.address() as { port: number }).port;
    const record = makeTempRecord();
    // Closed whatever the command does: a listener left open keeps this file's process, and the
    // tier that waits for it, from ever ending.
    const result = await runCommand([record.dir, '--port', String(port)]).finally(() => {
      blocker!.close();
      record.remove();
    });
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`^rec-dashboard: port ${port} is in use\\. Pick another with --port, or --port 0 for any free one\\.\\n$`));
  });

  it('when the default port is in use, the next free one is used, and the command says so', async () => {
    const blocker = await listenOn(DEFAULT_PORT); // null: something else holds it already, as good
    const record = makeTempRecord();
    const running = await startCommand([record.dir]);
    try {
      assert.notEqual(new URL(running.url).port, String(DEFAULT_PORT));
      assert.match(running.stdout.join('\n'), new RegExp(`Port ${DEFAULT_PORT} is in use; using \\d+ instead\\.`));
    } finally {
      running.child.kill('SIGTERM');
      await running.exited;
      blocker?.close();
      record.remove();
    }
  });

  it('with no directory it runs the demo: a record, a spex home and a set-agent-comm store, live at once, and the temporary folder is removed on exit', async () => {
    const running = await startCommand(['--port', '0']);
    let recordDir = '';
    try {
      const list = await eventually(async () => {
        const got = sessionsResponseSchema.parse(await (await running.get('/api/sessions')).json());
        const kinds = new Set(got.projects.flatMap((project) => project.sessions.map((session) => session.source.kind)));
        // The backlogs are written in a few hundred milliseconds, degraded sessions among them.
        return kinds.size === 3 && got.degradedSessions > 0 ? got : undefined;
      }, 'the demo conversations of every kind, degraded ones among them');
      assert.deepEqual(list.sources.map((source) => source.kind), ['record', 'spex', 'sac']);
      recordDir = list.sources[0]!.root;
      assert.match(running.stdout.join('\n'), /Demo stores with live traffic in .* \(removed on exit\)/);
      const reading = running.stdout.filter((line) => line.startsWith('Reading '));
      assert.equal(reading.length, 3);
      for (const line of reading) assert.match(line, /^Reading .* \(read-only\), which the demo's writer fills\.$/, 'a demo store is not said to be missing');
    } finally {
      running.child.kill('SIGTERM');
    }
    assert.equal(await running.exited, 0);
    assert.equal(existsSync(recordDir), false);
    assert.equal(existsSync(dirname(recordDir)), false, 'the demo folder, with every store in it');
  });
});
