import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { startCommand } from './command.ts';
import { makeTempRecord } from './harness.ts';
import { npmAsRun } from './npmAsRun.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NPM_ENV = npmAsRun();

/**
 * A fresh clone of the working tree: the files git would commit, as they are now (uncommitted
 * edits included), without node_modules, dist/ or anything else git ignores.
 */
async function copyAsFreshClone(into: string): Promise<void> {
  const listed = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  for (const file of listed.stdout.split('\0')) {
    if (file === '' || !existsSync(join(ROOT, file))) continue; // deleted, not yet committed
    mkdirSync(dirname(join(into, file)), { recursive: true });
    cpSync(join(ROOT, file), join(into, file));
  }
}

describe('the published package', () => {
  it('npm pack in a fresh clone gives a tarball that runs with npx and serves the built UI without dev dependencies', { timeout: 300_000 }, async () => {
    const work = makeTempRecord('rec-pack-');
    const record = makeTempRecord();
    try {
      const clone = join(work.dir, 'clone');
      await copyAsFreshClone(clone);
      assert.equal(existsSync(join(clone, 'dist')), false, 'a fresh clone has no dist/');
      await run('npm', ['ci'], { cwd: clone, env: NPM_ENV });
      // Installing must not build: that is for packing, and for `npm start`.
      assert.equal(existsSync(join(clone, 'dist')), false, 'npm ci does not build');
      await run('npm', ['pack', '--pack-destination', work.dir], { cwd: clone, env: NPM_ENV });
      const tarballName = readdirSync(work.dir).find((name) => name.endsWith('.tgz'))!;
      const tarball = join(work.dir, tarballName);

      // npx takes a tarball as a relative path; an absolute one it would run as a program.
      const npx = await run('npx', ['--yes', `./${tarballName}`, '--version'], { cwd: work.dir, env: NPM_ENV });
      assert.match(npx.stdout, /^rec-dashboard \d+\.\d+\.\d+\n$/);

      const app = join(work.dir, 'app');
      await run('npm', ['install', '--omit=dev', '--prefix', app, tarball], { cwd: work.dir, env: NPM_ENV });
      const installed = join(app, 'node_modules');
      for (const devOnly of ['react', 'vite', 'typescript', '@playwright/test']) {
        assert.equal(existsSync(join(installed, devOnly)), false, `${devOnly} is not installed`);
      }
      // The server's dependencies are inside its bundle: installing it fetches nothing else.
      assert.deepEqual(
        readdirSync(installed).filter((name) => !name.startsWith('.')),
        ['rec-dashboard'],
        'the package installs nothing beside itself',
      );
      // The package carries the product only: no bench, no test writer (which writes any bytes
      // into a record), no tests, no test fixtures.
      const shipped = readdirSync(join(installed, 'rec-dashboard'), { recursive: true, encoding: 'utf8' });
      const tooling = shipped.filter((path) => /(^|\/)(tools|bench|test|testing)(\/|$)|writerProcess|writerClient|\.test\.js$/.test(path));
      assert.deepEqual(tooling, []);
      assert.ok(shipped.includes('dist/server/demo/entryFile.js'), 'the demo and its plugin-like writer ship');
      // The server is bundled with its dependencies: their licences ship with it.
      assert.match(readFileSync(join(installed, 'rec-dashboard', 'dist', 'THIRD-PARTY-LICENSES.txt'), 'utf8'), /^fastify \d+\.\d+\.\d+\n\nMIT License/m);
      const running = await startCommand([record.dir, '--port', '0'], join(installed, 'rec-dashboard', 'dist', 'server', 'bin.js'));
      try {
        const page = await running.get('/');
        assert.match(await page.text(), /<div id="root">/);
        const list = recordSessionsResponseSchema.parse(await (await running.get('/api/sessions')).json());
        assert.equal(list.sources[0]!.root, record.dir);
      } finally {
        running.child.kill('SIGTERM');
        await running.exited;
      }
    } finally {
      work.remove();
      record.remove();
    }
  });
});
