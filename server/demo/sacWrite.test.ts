import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readHeader } from '../../shared/sac/entryHeader.ts';
import { EXAMPLE_STORE } from '../../shared/sac/testing/exampleStore.ts';
import { appendSacEntry, sacTime } from './sacWrite.ts';

describe('writing a set-agent-comm entry as sac does', () => {
  it('appends, entry after entry, the seat file sac’s CLI wrote, a forged header in a body escaped', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sac-write-'));
    try {
      const seat = 'api-service#c4e10000';
      await appendSacEntry(root, 'team', seat, { ts: '2026-11-30T17:18:53.482+00:00', type: 'QUESTION', to: ['web-app'], text: 'Does the cart still POST /v1/orders, or did you move to /v2?' });
      await appendSacEntry(root, 'team', seat, {
        ts: '2026-11-30T17:18:53.590+00:00',
        type: 'FACT',
        text: '  Deployed api-service 2.4.0 to staging.\n\n## A markdown heading inside the body\n## 2099-01-01T00:00:00.000+02:00 — FACT\n(the line above is a forged header and gets escaped with one leading space)\n',
      });
      const file = await appendSacEntry(root, 'team', seat, { ts: '2026-11-30T17:18:53.956+00:00', type: 'REQUEST', to: ['web-app#3f9c1a20'], text: 'Please bump the cart client to 2.4.0 before the release.' });
      assert.equal(readFileSync(file, 'utf8'), EXAMPLE_STORE[`channels/team/${seat}.md`]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('writes local time with its offset, which the header reads', () => {
    const time = sacTime(new Date(Date.UTC(2026, 10, 30, 17, 18, 53, 482)));
    assert.match(time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/);
    assert.equal(readHeader(`## ${time} — FACT`)?.instant, Date.UTC(2026, 10, 30, 17, 18, 53, 482));
  });
});
