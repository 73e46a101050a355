import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { makeTempRecord } from './harness.ts';
import { npmAsRun } from './npmAsRun.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** npm as it runs on Node 20: npm checks `engines` against `process.version`. */
const ON_NODE_20 = "--import=data:text/javascript,Object.defineProperty(process,'version',{value:'v20.19.0'})";

/** npm's exit, and all it wrote; `ended` says how it ended, for a failure's message. */
function runNpm(args: string[], cwd: string, nodeOptions: string): Promise<{ code: number; output: string; ended: string }> {
  return new Promise((resolve) => {
    // A cache of its own: npm runs elsewhere in the suite share the user's, and its lock.
    const env = npmAsRun({ NODE_OPTIONS: nodeOptions, npm_config_cache: join(cwd, '.npm-cache') });
    execFile('npm', args, { cwd, env }, (error, stdout, stderr) =>
      resolve({
        code: error === null ? 0 : Number(error.code ?? 1),
        output: `${stdout}${stderr}`,
        ended: error === null ? 'exit 0' : `code ${String(error.code)}, signal ${String(error.signal)}, ${error.message.split('\n')[0]}`,
      }),
    );
  });
}

describe('installing the project', () => {
  it('npm ci on a Node older than 22.22 stops at once with a short error naming the Node it needs, not a wall of warnings', async () => {
    const work = makeTempRecord('rec-install-');
    try {
      for (const file of ['package.json', 'package-lock.json', '.npmrc']) if (existsSync(join(ROOT, file))) copyFileSync(join(ROOT, file), join(work.dir, file));
      // --dry-run: the engine check comes first, and nothing is fetched or written if it passes.
      const result = await runNpm(['ci', '--dry-run'], work.dir, ON_NODE_20);
      assert.notEqual(result.code, 0, `npm ci went on under Node 20:\n${result.output}`);
      assert.match(result.output, /Required: \{"node":">=22\.22"\}/, `npm ended (${result.ended}) with:\n${result.output}`);
      assert.doesNotMatch(result.output, /npm warn EBADENGINE/);
      assert.ok(result.output.trim().split('\n').length <= 10, result.output);
    } finally {
      work.remove();
    }
  });

  for (const script of ['start', 'build', 'test']) {
    it(`npm ${script === 'test' ? 'test' : `run ${script}`} on a Node older than 22.22 stops at once with one line naming the Node it needs, never a stack trace`, async () => {
      const work = makeTempRecord('rec-old-node-');
      try {
        copyFileSync(join(ROOT, 'package.json'), join(work.dir, 'package.json'));
        mkdirSync(join(work.dir, 'tools', 'build'), { recursive: true });
        copyFileSync(join(ROOT, 'tools', 'build', 'needsNode.mjs'), join(work.dir, 'tools', 'build', 'needsNode.mjs'));
        const result = await runNpm(['run', script], work.dir, ON_NODE_20);
        assert.notEqual(result.code, 0, result.output);
        const said = result.output.split('\n').filter((line) => line.startsWith('rec-dashboard:'));
        assert.deepEqual(said.length, 1, result.output);
        assert.match(said[0]!, /needs Node\.js 22\.22 or newer, and this is v20\.19\.0/);
        assert.doesNotMatch(result.output, /ERR_UNKNOWN_FILE_EXTENSION|\n\s+at /);
      } finally {
        work.remove();
      }
    });
  }
});
