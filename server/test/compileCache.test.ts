import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chooseCompileCacheDir } from '../compileCache.ts';
import { startCommand, type RunningCommand } from './command.ts';
import { makeTempRecord } from './harness.ts';

// The compile cache keeps V8's code for the server between starts, in the user's cache directory:
// never in a store, and never a reason for a start to fail.

const linux = (env: NodeJS.ProcessEnv = {}) => ({ env, platform: 'linux' as const, home: '/home/someone' });

async function stopCommand(running: RunningCommand): Promise<void> {
  running.child.kill('SIGTERM');
  await running.exited;
}

describe('the compile cache', () => {
  it('lives in the user\'s cache directory (XDG_CACHE_HOME, else ~/.cache; ~/Library/Caches on macOS), or where NODE_COMPILE_CACHE says', () => {
    assert.equal(chooseCompileCacheDir([], linux()), '/home/someone/.cache/rec-dashboard/compile-cache');
    assert.equal(chooseCompileCacheDir([], linux({ XDG_CACHE_HOME: '/var/cache/me' })), '/var/cache/me/rec-dashboard/compile-cache');
    assert.equal(chooseCompileCacheDir([], { env: {}, platform: 'darwin', home: '/Users/me' }), '/Users/me/Library/Caches/rec-dashboard/compile-cache');
    assert.equal(chooseCompileCacheDir([], linux({ NODE_COMPILE_CACHE: '/tmp/v8' })), '/tmp/v8');
  });

  it('is never put in a store, nor in a directory that holds one, and is off when NODE_DISABLE_COMPILE_CACHE says so', () => {
    assert.equal(chooseCompileCacheDir(['/home/someone/.cache'], linux()), null);
    assert.equal(chooseCompileCacheDir(['/home/someone/.cache/rec-dashboard/compile-cache/record'], linux()), null);
    assert.equal(chooseCompileCacheDir(['/srv/record'], linux({ NODE_COMPILE_CACHE: '/srv/record/.v8' })), null);
    assert.equal(chooseCompileCacheDir(['/home/someone/.claude/record'], linux()), '/home/someone/.cache/rec-dashboard/compile-cache');
    assert.equal(chooseCompileCacheDir([], linux({ NODE_DISABLE_COMPILE_CACHE: '1' })), null);
  });

  it('is written by a start, in the cache directory and not in the record, for the next start to compile from', { timeout: 120_000 }, async () => {
    const record = makeTempRecord();
    const cache = makeTempRecord('rec-cache-');
    try {
      const running = await startCommand([record.dir, '--port', '0'], undefined, [], { XDG_CACHE_HOME: cache.dir, NODE_COMPILE_CACHE: '' });
      assert.equal((await running.get('/api/sessions')).status, 200);
      await stopCommand(running);
      const dir = join(cache.dir, 'rec-dashboard', 'compile-cache');
      assert.ok(existsSync(dir) && readdirSync(dir).length > 0, 'the compile cache was written');
      assert.deepEqual(readdirSync(record.dir), []);
    } finally {
      record.remove();
      cache.remove();
    }
  });

  it('a cache directory that cannot be made costs nothing: the command starts and answers, and says nothing of it', { timeout: 120_000 }, async () => {
    const record = makeTempRecord();
    const cache = makeTempRecord('rec-cache-');
    try {
      // A file where the cache's parent directory should be: no directory can be made there.
      writeFileSync(join(cache.dir, 'rec-dashboard'), 'not a directory');
      mkdirSync(join(record.dir, 's1'));
      const running = await startCommand([record.dir, '--port', '0'], undefined, [], { XDG_CACHE_HOME: cache.dir, NODE_COMPILE_CACHE: '' });
      assert.equal((await running.get('/api/sessions')).status, 200);
      await stopCommand(running);
      assert.equal(running.stderr(), '');
    } finally {
      record.remove();
      cache.remove();
    }
  });
});
