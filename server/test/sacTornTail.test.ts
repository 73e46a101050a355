import assert from 'node:assert/strict';
import { appendFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { TEST_PENDING_WINDOW_MS } from './harness.ts';
import { removeStores, startReader, until, writeExampleStore } from './sacReaderRig.ts';

// Apart from the reader's other tests (server/sac/sacReader.test.ts) because it waits out the
// pending window on the real clock (the tests' shorter one, TEST_PENDING_WINDOW_MS): the fast tier
// runs its files one after another in one process, where that wait held up every test behind it;
// here it runs beside other files.

const made: string[] = [];
after(() => removeStores(made));

const WEB = 'web-app#3f9c1a20';

describe('the sac reader', () => {
  it('keeps an unterminated tail pending, and calls it torn once the pending window has passed', async () => {
    const root = writeExampleStore(made);
    const { reader } = await startReader(root, { pendingWindowMs: TEST_PENDING_WINDOW_MS });
    try {
      const file = join(root, 'channels/team', `${WEB}.md`);
      appendFileSync(file, '\n## 2026-11-30T17:21:00.000+00:00 — FACT\nhalf a li');
      const pending = await until(() => (reader.seatFile('team', WEB)!.reading.items.at(-1)?.evidence === 'pending' ? true : undefined), 'a pending tail');
      assert.ok(pending);
      // An mtime older than the window: the reader's timer looks again after the window and finds it torn.
      const past = new Date(Date.now() - TEST_PENDING_WINDOW_MS - 1_000);
      utimesSync(file, past, past);
      appendFileSync(file, '');
      utimesSync(file, past, past);
      await until(() => (reader.seatFile('team', WEB)!.reading.items.at(-1)?.evidence === 'damaged' ? true : undefined), 'a torn tail', TEST_PENDING_WINDOW_MS + 5_000);
    } finally {
      await reader.close();
    }
  });

});
