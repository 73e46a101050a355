import assert from 'node:assert/strict';
import { appendFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { removeStores, startReader, until, writeExampleStore } from './sacReaderRig.ts';

// Apart from the reader's other tests (server/sac/sacReader.test.ts) because it waits out the
// pending window, 10 s of the real clock: the fast tier runs its files one after another in one
// process, where that wait held up every test behind it; here it runs beside other files.

const made: string[] = [];
after(() => removeStores(made));

const WEB = 'web-app#3f9c1a20';

describe('the sac reader', () => {
  it('keeps an unterminated tail pending, and calls it torn once its mtime is 10 s old', async () => {
    const root = writeExampleStore(made);
    const { reader } = await startReader(root);
    try {
      const file = join(root, 'channels/team', `${WEB}.md`);
      appendFileSync(file, '\n## 2026-11-30T17:21:00.000+00:00 — FACT\nhalf a li');
      const pending = await until(() => (reader.seatFile('team', WEB)!.reading.items.at(-1)?.evidence === 'pending' ? true : undefined), 'a pending tail');
      assert.ok(pending);
      // An mtime 11 s ago: the reader's timer looks again after the window and finds it torn.
      const past = new Date(Date.now() - 11_000);
      utimesSync(file, past, past);
      appendFileSync(file, '');
      utimesSync(file, past, past);
      await until(() => (reader.seatFile('team', WEB)!.reading.items.at(-1)?.evidence === 'damaged' ? true : undefined), 'a torn tail', 12_000);
    } finally {
      await reader.close();
    }
  });

});
