import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { startCommandTelling } from './command.ts';
import { makeTempRecord } from './harness.ts';

// The command as published: dist/server/bin.js, which `npm run build` makes (and `npm test` runs
// before this tier).

const BUILT_BIN = fileURLToPath(new URL('../../dist/server/bin.js', import.meta.url));

describe('the built command', () => {
  it('answers its first request without having loaded what Node loads only for an import of its modules (undici, TLS, HTTP/2, zlib, Web Crypto, file streams)', async () => {
    assert.ok(existsSync(BUILT_BIN), `${BUILT_BIN} is missing: run npm run build first`);
    const record = makeTempRecord();
    const running = await startCommandTelling('tellBuiltinsLoaded.ts', [record.dir, '--port', '0'], BUILT_BIN);
    try {
      const response = await running.get('/api/sessions');
      assert.equal(response.status, 200);
      await response.arrayBuffer();
    } finally {
      running.child.kill('SIGTERM');
    }
    assert.equal(await running.exited, 0);
    // Read once it has ended: the line is printed as the answer ends, and may reach us after it.
    assert.ok(running.stdout.includes('(loaded by the first answer: none of them)'), running.stdout.join('\n'));
    record.remove();
  });
});
