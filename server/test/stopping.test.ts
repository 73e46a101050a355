import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request, Agent, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eventually, makeTempRecord } from './harness.ts';
import { startCommand, type RunningCommand } from './command.ts';
import { npmAsRun } from './npmAsRun.ts';
import { childPidsOf, isRunning } from './processes.ts';

// The command must stop promptly on SIGINT and SIGTERM whatever clients are attached: a browser
// tab holds the event stream open for as long as it is open. Promptly is the command's own
// deadline (docs/usage.md says 2 s): a close that outlasts it ends the command with exit code 1,
// so exit code 0 says the close finished in time, by the command's clock rather than a timed test
// on a shared machine. The bound here only stops a command that hangs.
const STOP_BOUND_MS = 30_000;

/** Sends the signal and resolves with how the command ended, or 'still running' after the bound. */
async function stopWith(running: RunningCommand, signal: NodeJS.Signals): Promise<number | null | 'still running'> {
  running.child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'still running'>((resolve) => (timer = setTimeout(() => resolve('still running'), STOP_BOUND_MS)));
  const ended = await Promise.race([running.exited, bound]);
  clearTimeout(timer);
  if (ended === 'still running') {
    running.child.kill('SIGKILL');
    await running.exited;
  }
  return ended;
}

/** Opens /api/events as a browser tab does, and resolves once the first notice has come. */
function openEventStream(running: RunningCommand): Promise<{ response: IncomingMessage; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const url = new URL('/api/events', running.url);
    const req = request(url, { headers: { authorization: `Bearer ${running.token}`, accept: 'text/event-stream' } }, (response) => {
      const ended = new Promise<void>((done) => {
        response.on('end', done);
        response.on('error', () => done());
        response.on('close', done);
      });
      response.setEncoding('utf8');
      response.once('data', () => resolve({ response, ended }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The demo's temporary record, as the command printed it. */
function demoRecordOf(running: RunningCommand): string {
  const line = running.stdout.find((text) => text.startsWith('Demo stores with live traffic in '));
  assert.ok(line !== undefined, `the command named its demo record: ${running.stdout.join('\n')}`);
  return line.replace(/^Demo stores with live traffic in /, '').replace(/ \(removed on exit\).*$/, '');
}

describe('stopping the command', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} stops it promptly while a browser tab holds the event stream open, and the demo's record is removed`, async () => {
      const running = await startCommand(['--port', '0']);
      const recordDir = demoRecordOf(running);
      const stream = await openEventStream(running);
      const ended = await stopWith(running, signal);
      assert.equal(ended, 0, 'exit code 0: closed before the command\'s own deadline');
      // The client is told the stream is over, so a page can say the server is gone.
      await stream.ended;
      assert.equal(existsSync(recordDir), false, 'the temporary record is removed');
    });
  }

  it('SIGTERM stops it promptly while a client holds an idle keep-alive connection and another has sent half a request', async () => {
    const record = makeTempRecord();
    const running = await startCommand([record.dir, '--port', '0']);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let half: Socket | null = null;
    try {
      await new Promise<void>((resolve, reject) => {
        const req = request(new URL('/api/sessions', running.url), { agent, headers: { authorization: `Bearer ${running.token}` } }, (response) => {
          assert.equal(response.statusCode, 200);
          response.resume();
          response.on('end', resolve);
        });
        req.on('error', reject);
        req.end();
      });
      const { port } = new URL(running.url);
      half = connect(Number(port), '127.0.0.1');
      half.on('error', () => {});
      await new Promise<void>((resolve) => half!.once('connect', () => resolve()));
      // Headers begun and never finished: the server counts this request as in progress.
      half.write(`GET /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${running.token}\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(await stopWith(running, 'SIGTERM'), 0, 'exit code 0: closed before the command\'s own deadline');
    } finally {
      half?.destroy();
      agent.destroy();
      record.remove();
    }
  });

  it('a tab whose event stream is ended is not waited for to close its side: stopping cuts no connection', async () => {
    // Chromium takes its time to close its side of a stream the server has ended; the server
    // closes the connection once the stream is over, rather than waiting for the browser, or for
    // the cut after its grace (which the command reports on stderr). This client never closes its
    // side.
    const record = makeTempRecord();
    const running = await startCommand([record.dir, '--port', '0']);
    const { port } = new URL(running.url);
    const tab = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
    tab.on('error', () => {});
    try {
      await new Promise<void>((resolve) => tab.once('connect', () => resolve()));
      tab.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${running.token}\r\nAccept: text/event-stream\r\n\r\n`);
      await new Promise((resolve) => tab.once('data', resolve));
      assert.equal(await stopWith(running, 'SIGINT'), 0, 'exit code 0: closed before the command\'s own deadline');
      assert.doesNotMatch(running.stderr(), /cut/, 'no connection was left to cut');
    } finally {
      tab.destroy();
      record.remove();
    }
  });

  it('the demo writer ends when the dashboard is killed outright, and leaves no record behind', async () => {
    // A fast demo, so that a writer that outlived the dashboard would be seen writing.
    const running = await startCommand(['--port', '0'], undefined, ['env', 'DEMO_INTERVAL_MS=20']);
    const recordDir = demoRecordOf(running);
    const writers = childPidsOf(running.child.pid!);
    assert.equal(writers.length, 1, 'the dashboard runs one demo writer');
    const writer = writers[0]!;
    try {
      running.child.kill('SIGKILL');
      await running.exited;
      await eventually(() => (isRunning(writer) ? undefined : true), 'the demo writer to end', STOP_BOUND_MS);
      // Nothing is left writing: the temporary record is gone, and nothing makes it again.
      await eventually(() => (existsSync(recordDir) ? undefined : true), 'the temporary record to be removed', STOP_BOUND_MS);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(existsSync(recordDir), false);
    } finally {
      if (isRunning(writer)) process.kill(writer, 'SIGKILL');
    }
  });

  it('npm start hands SIGTERM to the dashboard: stopping npm by its pid stops the dashboard and removes the demo record', async () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    assert.ok(existsSync(join(root, 'dist', 'server', 'bin.js')), 'build first: npm run build');
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const start = scripts['start']!;
    assert.ok(start.startsWith('npm run build && '), `the start script builds first: ${start}`);
    // The same script over the dist/ built already: building again would pull dist/ from under
    // the tests running alongside.
    const project = makeTempRecord('rec-start-');
    writeFileSync(join(project.dir, 'package.json'), JSON.stringify({ private: true, scripts: { start: start.replace('npm run build', 'true') } }));
    symlinkSync(join(root, 'dist'), join(project.dir, 'dist'));
    const npm = spawn('npm', ['start', '--', '--port', '0', '--no-open'], {
      cwd: project.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: npmAsRun({ CI: '1' }),
    });
    const npmExited = new Promise((resolve) => npm.once('exit', resolve));
    const lines: string[] = [];
    const started: number[] = [];
    let recordDir = '';
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm start printed no address: ${lines.join('\n')}`)), 20_000);
        createInterface({ input: npm.stdout }).on('line', (line) => {
          lines.push(line);
          if (/^http:\/\/\S+$/.test(line)) {
            clearTimeout(timer);
            resolve(line);
          }
        });
      });
      recordDir = lines.find((line) => line.startsWith('Demo stores with live traffic in '))!.replace(/^Demo stores with live traffic in | \(removed on exit\).*$/g, '');
      started.push(...descendantsOf(npm.pid!));
      npm.kill('SIGTERM');
      await npmExited;
      await eventually(
        async () => {
          try {
            await fetch(url);
            return undefined;
          } catch {
            return true; // refused: nothing listens any more
          }
        },
        'the dashboard to stop listening',
        STOP_BOUND_MS,
      );
      await eventually(() => (existsSync(recordDir) ? undefined : true), 'the demo record to be removed', STOP_BOUND_MS);
    } finally {
      for (const pid of started) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
      npm.kill('SIGKILL');
      if (recordDir !== '') rmSync(recordDir, { recursive: true, force: true });
      project.remove();
    }
  });
});

/** Every process below `pid`: the shell npm runs the script in (if any), the dashboard, its demo writer. */
function descendantsOf(pid: number): number[] {
  const children = childPidsOf(pid);
  return [...children, ...children.flatMap(descendantsOf)];
}
