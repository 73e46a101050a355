import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sessionResponseSchema } from '../../shared/wire/record.ts';
import { nameAt, receivedEntry, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { eventually, getJson, makeTempRecord, startTestDashboard } from './harness.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';

// A first scan of 50 folders or more is read by scan threads. Whichever thread reads a folder,
// the reader must conclude the same: these folders hold every kind of file, entries only the
// schemas can read among them (a scan thread leaves the first few to the thread concluding, which
// has them loaded, and loads them itself for the rest).

const FOLDERS = 120;

describe('the first scan, read by scan threads', () => {
  it('every file of a large record is read and classified as the reader alone would', async () => {
    const record = makeTempRecord();
    const old = new Date(Date.now() - 3_600_000);
    const halfWritten: string[] = [];
    for (let i = 0; i < FOLDERS; i++) {
      const sessionId = `s${String(i).padStart(3, '0')}`;
      const dir = join(record.dir, sessionId);
      mkdirSync(dir);
      const put = (name: string, value: object) => writeFileSync(join(dir, name), JSON.stringify({ ...value, sessionId }));
      put(nameAt(0, 1), startEntry(0));
      put(nameAt(1, 2), sentEntry(1, `hello from ${sessionId}`));
      put(nameAt(2, 3), receivedEntry(2, 'hi', { outcome: 'rejected' }));
      put(nameAt(3, 4), sentEntry(3, 'refused', { isQueued: false, reason: 'refuses inbound' }));
      writeFileSync(join(dir, 'notes.txt'), 'a stray');
      let seq = 5;
      if (i % 3 === 0) {
        writeFileSync(join(dir, nameAt(4, seq)), '{"kind":"message","cut');
        utimesSync(join(dir, nameAt(4, seq)), old, old);
        seq++;
      }
      if (i % 10 === 0) {
        writeFileSync(join(dir, nameAt(5, seq)), '{"kind":"message","still writing');
        halfWritten.push(join(dir, nameAt(5, seq)));
      }
      // A link under an entry's name is never followed: it is unreadable in that entry's place.
      if (i % 7 === 0) symlinkSync('/etc/hostname', join(dir, nameAt(6, seq++)));
      // Not in the form the plugin writes: the schemas say what is wrong with them.
      put(nameAt(7, seq++), receivedEntry(7, 'x', { outcome: 'delivered' }));
      put(nameAt(8, seq++), sentEntry(8, 'x', { isQueued: 'yes' }));
    }
    const dashboard = await startTestDashboard(record.dir);
    try {
      await eventually(() => (dashboard.sources[0]!.status().indexing.state === 'ready' ? true : undefined), 'the first scan', 20_000);
      const list = await getJson(dashboard, '/api/sessions', recordSessionsResponseSchema);
      const sessions = list.projects.flatMap((project) => project.sessions);
      assert.equal(sessions.length, FOLDERS);
      for (const session of sessions) {
        const i = Number(session.sessionId.slice(1));
        assert.deepEqual(
          session.counts,
          { sent: 2, received: 1, refused: 1, rejected: 1, damaged: i % 3 === 0 ? 1 : 0, pending: i % 10 === 0 ? 1 : 0, invalid: 2, missing: 0, stray: 1 },
          session.sessionId,
        );
        assert.deepEqual(session.degraded.map((reason) => reason.code), [...(i % 3 === 0 ? ['damaged-file'] : []), 'invalid-entry', ...(i % 7 === 0 ? ['unreadable'] : [])], session.sessionId);
      }
      // A file still being written when the worker read it is read again, and parses once done.
      for (const path of halfWritten) writeFileSync(path, JSON.stringify({ ...sentEntry(5, 'done now'), sessionId: path.split('/').at(-2) }));
      await eventually(async () => {
        const page = await getJson(dashboard, '/api/sessions/s000', sessionResponseSchema);
        return page.session.counts.pending === 0 && page.session.counts.sent === 3 ? true : undefined;
      }, 'the finished file');
    } finally {
      await dashboard.close();
      record.remove();
    }
  });
});
