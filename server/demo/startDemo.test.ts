import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';

// The demo's writer is a process of its own. One that cannot be started at all (no Node at the
// path this one runs from: it was removed or replaced while the command ran) is told as the
// writer stopping, and the command goes on reading the demo's stores and stops when asked.

const MODULE = new URL('./startDemo.ts', import.meta.url).href;

describe('the demo writer', () => {
  it('that cannot be started is told as stopped, ends nothing, and the demo still stops and removes its folder', async () => {
    const script = `import { startDemo } from ${JSON.stringify(MODULE)};
process.execPath = '/nonexistent/node';
const demo = startDemo((code) => process.stdout.write(JSON.stringify({ stopped: code }) + '\\n'));
setTimeout(async () => {
  await demo.stop();
  process.stdout.write(JSON.stringify({ dir: demo.dir, wentOn: true }) + '\\n');
}, 300);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 0, stderr);
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as { stopped?: number | null; dir?: string; wentOn?: boolean });
    assert.deepEqual(lines[0], { stopped: null });
    assert.equal(lines[1]?.wentOn, true);
    assert.equal(existsSync(lines[1]!.dir!), false, 'its folder is removed');
  });
});
