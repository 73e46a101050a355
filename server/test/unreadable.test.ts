import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sessionResponseSchema } from '../../shared/wire/record.ts';
import { nameAt, sentEntry, startEntry } from '../../shared/test/recordFixtures.ts';
import { BIN, WITHOUT_ROOT_READ, startCommand } from './command.ts';
import { eventually, makeTempRecord } from './harness.ts';
import { recordSessionsResponseSchema } from '../../shared/test/recordWire.ts';

describe('what the reader may not read', () => {
  it('a session folder and an entry file without read permission are reported as unreadable, and the rest goes on', async () => {
    const record = makeTempRecord();
    const put = (session: string, name: string, value: object) => {
      mkdirSync(join(record.dir, session), { recursive: true });
      writeFileSync(join(record.dir, session, name), JSON.stringify({ ...value, sessionId: session }));
    };
    put('open', nameAt(0, 1), startEntry(0));
    put('open', nameAt(1, 2), sentEntry(1, 'readable'));
    put('open', nameAt(2, 3), sentEntry(2, 'locked away'));
    put('closed', nameAt(0, 1), startEntry(0));
    chmodSync(join(record.dir, 'open', nameAt(2, 3)), 0o000);
    chmodSync(join(record.dir, 'closed'), 0o000);
    const running = await startCommand([record.dir, '--port', '0'], BIN, WITHOUT_ROOT_READ);
    try {
      const list = await eventually(async () => {
        const got = recordSessionsResponseSchema.parse(await (await running.get('/api/sessions')).json());
        return got.sources[0]!.indexing.state === 'ready' ? got : undefined;
      }, 'the first scan');
      const sessions = list.projects.flatMap((project) => project.sessions);
      const closed = sessions.find((session) => session.sessionId === 'closed');
      assert.deepEqual(closed?.degraded.find((reason) => reason.code === 'unreadable'), { code: 'unreadable', files: [], filesTotal: 0, folder: 'permission denied' });
      const open = sessionResponseSchema.parse(await (await running.get('/api/sessions/open')).json());
      assert.deepEqual(
        open.items.map((item) => item.type === 'file' && [item.seq, item.evidence, item.why]),
        [[1, 'parsed', null], [2, 'parsed', null], [3, 'unreadable', 'permission denied']],
      );
      assert.deepEqual(open.session.degraded.map((reason) => reason.code), ['unreadable']);
    } finally {
      running.child.kill('SIGTERM');
      await running.exited;
      chmodSync(join(record.dir, 'closed'), 0o755);
      record.remove();
    }
  });
});
