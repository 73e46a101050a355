import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';

// A process of its own, as the command is: the failure must end it, after the command's words.

const MODULE = new URL('./unforeseenFailure.ts', import.meta.url).href;

/** Runs `failure` in a process that reports unforeseen failures as the command does; its exit code, what it wrote to stderr, and whether it went on. */
function runFailing(failure: string): Promise<{ code: number | null; stderr: string; wentOn: boolean }> {
  const script = `import { reportUnforeseenFailures } from ${JSON.stringify(MODULE)};
reportUnforeseenFailures();
setTimeout(() => { ${failure} }, 0);
setTimeout(() => process.stdout.write('went on'), 200);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr, wentOn: stdout.includes('went on') }));
  });
}

describe('a failure nobody foresaw', () => {
  it('an exception nobody caught ends the command, after a line that says it is a bug and that no store was changed, and the error itself', async () => {
    const ended = await runFailing(`throw new Error('a lane slot left held');`);
    assert.equal(ended.wentOn, false);
    assert.notEqual(ended.code, 0);
    assert.match(ended.stderr, /rec-dashboard: stopped by an error nobody caught \(a bug: please report it with what follows\)\. It never writes to a store, so none was changed/);
    assert.match(ended.stderr, /a lane slot left held/);
  });

  it('a rejection nobody handled ends the command the same way, named as such', async () => {
    const ended = await runFailing(`Promise.reject(new Error('a read begun ahead failed'));`);
    assert.equal(ended.wentOn, false);
    assert.notEqual(ended.code, 0);
    assert.match(ended.stderr, /rec-dashboard: stopped by a failure nobody handled \(a bug/);
    assert.match(ended.stderr, /a read begun ahead failed/);
  });
});
