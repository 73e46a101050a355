import { writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { entryFileName, textFields } from '../../server/demo/entryFile.ts';
import { SessionWriting, makeRecordDir, startWriter } from './record.ts';

// One finished record that several spec files only read: a little of every state a reader
// meets. The global setup writes it and fingerprints it; the global teardown checks that the
// whole run left every file of it as it was.

export const SHARED_ENV = 'REC_E2E_SHARED_RECORD';

/** Unknown fields whose values JSON.parse would alter, and a `__proto__` field. */
export const UNKNOWN_FIELDS = '"big":12345678901234567890,"huge":1e400,"zero":-0,"__proto__":{"x":1}';

export type SharedRecord = {
  dir: string;
  /** Session ids by role. */
  ids: { alpha: string; beta: string; degraded: string; noStart: string; chainChild: string; metadata: string };
  /** File names worth linking to. */
  files: { alphaSent: string; betaReceived: string };
  texts: { crlf: string };
};

export async function writeSharedRecord(): Promise<SharedRecord> {
  const { dir } = await makeRecordDir('shared');
  const writer = await startWriter(dir);
  try {
    const alpha = new SessionWriting(writer, '/home/dev/projects/alpha');
    const beta = new SessionWriting(writer, '/home/dev/projects/beta');
    const crlf = 'First line\r\nSecond line\twith a tab 🚀 done';
    await alpha.start();
    await beta.start();
    const alphaSent = await alpha.sent({ as: 'beta-service' }, crlf);
    const betaReceived = await beta.received({ as: 'uds:/tmp/cc-socks/4242.sock' }, crlf, 'queued');
    await beta.sent({ as: 'uds:/tmp/cc-socks/4242.sock', sessionId: alpha.sessionId }, 'Thanks, got it queued on my side.');
    await alpha.received({ as: 'beta-service' }, 'Thanks, got it queued on my side.', 'consumed');
    await alpha.sent({ as: 'docs' }, 'Please update the docs page.', { isQueued: false, reason: 'recipient refuses inbound messages (crossSessionInbound=refuse)' });

    const degraded = new SessionWriting(writer, '/home/dev/projects/beta');
    await degraded.start();
    await degraded.sent({ as: 'alpha' }, 'before the gap');
    degraded.seq += 1; // the next number is never written: a gap
    await degraded.sent({ as: 'alpha' }, 'after the gap');
    const old = new Date(Date.now() - 60_000);
    await degraded.raw(entryFileName(new Date(), ++degraded.seq), '{"kind":"message","sessionId":"cut sh', old);
    await degraded.raw(entryFileName(new Date(Date.now() + 1), ++degraded.seq), JSON.stringify({ kind: 'message', side: 'sideways' }));
    await degraded.raw('notes.txt', 'not an entry');
    // Fields as no JSON.stringify writes them: the raw view shows them as the file has them.
    const heartbeatAt = new Date(Date.now() + 2);
    await degraded.raw(
      entryFileName(heartbeatAt, ++degraded.seq),
      `{"kind":"heartbeat","sessionId":"${degraded.sessionId}","at":"${heartbeatAt.toISOString()}","cwd":"${degraded.cwd}","beat":1,${UNKNOWN_FIELDS}}`,
    );

    const noStart = new SessionWriting(writer, '/home/dev/projects/alpha');
    await noStart.received(undefined, 'a message from nobody we know', 'unknown');

    const chainChild = new SessionWriting(writer, '/home/dev/projects/alpha');
    await chainChild.start();
    await chainChild.chain(alpha.sessionId, 1, 'Fix the flaky cart test');

    const metadata = new SessionWriting(writer, '/home/dev/projects/beta');
    await metadata.start();
    await metadata.sent({ as: 'alpha' }, textFields('a confidential text', 'metadata'));
    return {
      dir,
      ids: {
        alpha: alpha.sessionId,
        beta: beta.sessionId,
        degraded: degraded.sessionId,
        noStart: noStart.sessionId,
        chainChild: chainChild.sessionId,
        metadata: metadata.sessionId,
      },
      files: { alphaSent, betaReceived },
      texts: { crlf },
    };
  } finally {
    await writer.send({ op: 'exit' }).catch(() => {});
    await writer.exited;
  }
}

const infoFile = (dir: string) => path.join(path.dirname(dir), 'shared.json');

export async function saveShared(shared: SharedRecord, fingerprint: string[]): Promise<void> {
  await writeFile(infoFile(shared.dir), JSON.stringify({ shared, fingerprint }));
}

export async function loadShared(): Promise<{ shared: SharedRecord; fingerprint: string[] }> {
  const dir = process.env[SHARED_ENV];
  if (dir === undefined) throw new Error(`${SHARED_ENV} is not set: run the tests with e2e/playwright.config.ts`);
  return JSON.parse(await readFile(infoFile(dir), 'utf8')) as { shared: SharedRecord; fingerprint: string[] };
}
