import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createFileReadLane, readFilesAhead, type AheadRead } from './readAhead.ts';
import { fingerprintBytesForTest } from '../test/byteFingerprint.ts';
import { readJsonText } from './jsonText.ts';
import { readWhole } from './safeOpen.ts';

// Files read ahead on a thread go through the same safe open as on the event loop: whatever the
// thread, a link is never followed, a pipe never opened, nothing outside the root read.

const base = mkdtempSync(join(tmpdir(), 'rec-read-ahead-'));
const root = join(base, 'store');
const outside = join(base, 'outside');
mkdirSync(join(root, 'session'), { recursive: true });
mkdirSync(outside);
writeFileSync(join(outside, 'secret.json'), '{"outside":true}');
writeFileSync(join(root, 'session', 'a.json'), '{"a":1}');
writeFileSync(join(root, 'session', 'b.json'), Buffer.from([0x7b, 0xff, 0x7d]));
symlinkSync(join(outside, 'secret.json'), join(root, 'session', 'link.json'));
symlinkSync(outside, join(root, 'away'));
execFileSync('mkfifo', [join(root, 'session', 'pipe.json')]);
const lane = createFileReadLane(1);

after(async () => {
  await lane.close();
  rmSync(base, { recursive: true, force: true });
});

/** What a read says, without the times a second look may see otherwise. */
function describeRead(read: AheadRead): unknown {
  if (read.type === 'bytes') return { type: 'bytes', bytes: [...read.bytes], size: read.size };
  if (read.type === 'refused') return { type: 'refused', refusal: read.refusal };
  return { type: read.type };
}

describe('files read ahead on a thread', () => {
  it('are read as the event loop reads them: bytes as on disk, and a link, a pipe, a folder outside and a missing file refused or missing alike', async () => {
    const paths = ['session/a.json', 'session/b.json', 'session/link.json', 'session/pipe.json', 'away/secret.json', 'session/none.json', 'session'].map((name) => join(root, name));
    const ahead: AheadRead[] = [];
    for await (const read of readFilesAhead(lane, paths.map((path) => ({ path, size: 10 })), { root, maxBytes: 1024 }, new AbortController().signal)) ahead.push(...read);
    const onLoop = paths.map((path) => readWhole(path, { root, maxBytes: 1024 }));
    assert.deepEqual(ahead.map(describeRead), onLoop.map(describeRead));
    assert.deepEqual(ahead.map((read) => (read.type === 'refused' ? read.refusal : read.type)), ['bytes', 'bytes', 'link', 'not-a-file', 'outside', 'missing', 'folder']);
  });

  it('in batches: many files, more than a batch holds, come in their order', async () => {
    const names = Array.from({ length: 300 }, (_, i) => `many-${String(i).padStart(3, '0')}.json`);
    for (const name of names) writeFileSync(join(root, 'session', name), JSON.stringify({ name }));
    const texts: string[] = [];
    for await (const batch of readFilesAhead(lane, names.map((name) => ({ path: join(root, 'session', name), size: 20 })), { root }, new AbortController().signal)) {
      for (const read of batch) texts.push(read.type === 'bytes' ? read.bytes.toString('utf8') : read.type);
    }
    assert.deepEqual(texts, names.map((name) => JSON.stringify({ name })));
  });

  it('read side by side on two threads, batches ahead of the one taken: every file comes once, in its order, whatever its size', async () => {
    const two = createFileReadLane(2);
    try {
      const names = Array.from({ length: 700 }, (_, i) => `side-${String(i).padStart(3, '0')}.json`);
      const text = (i: number) => JSON.stringify({ i, pad: 'p'.repeat((i * 7919) % 20_000) });
      names.forEach((name, i) => writeFileSync(join(root, 'session', name), text(i)));
      const texts: string[] = [];
      for await (const batch of readFilesAhead(two, names.map((name, i) => ({ path: join(root, 'session', name), size: text(i).length })), { root }, new AbortController().signal)) {
        for (const read of batch) texts.push(read.type === 'bytes' ? read.bytes.toString('utf8') : read.type);
      }
      assert.deepEqual(texts, names.map((_, i) => text(i)));
    } finally {
      await two.close();
    }
  });
});

describe('files read ahead as JSON texts', () => {
  it('come as the JSON string of their bytes, byte for byte as JSON.stringify writes their text, bytes that are not UTF-8 as their base64, each with the fingerprint of its bytes; what cannot be read comes as on the event loop', async () => {
    const texts = [Buffer.from('{"a":"quote \\" and \\\\ and \\t, ✓ 日本語"}\n'), Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), Buffer.from('line\u2028break\u0001\t\r\n')];
    texts.forEach((bytes, i) => writeFileSync(join(root, 'session', `json-${i}.json`), bytes));
    const paths = [...texts.map((_, i) => `session/json-${i}.json`), 'session/link.json', 'session/none.json'].map((name) => join(root, name));
    const fingerprint = { module: new URL('../test/byteFingerprint.ts', import.meta.url).href, name: 'fingerprintBytesForTest' };
    const ahead: AheadRead[] = [];
    for await (const batch of readFilesAhead(lane, paths.map((path) => ({ path, size: 10 })), { root, maxBytes: 1024 }, new AbortController().signal, { fingerprint })) ahead.push(...batch);
    assert.deepEqual(ahead.slice(texts.length).map(describeRead), paths.slice(texts.length).map((path) => describeRead(readWhole(path, { root, maxBytes: 1024 }))));
    assert.deepEqual(
      ahead.slice(0, texts.length).map((read) => (read.type === 'json' ? { json: read.json.toString('latin1'), base64: read.base64, fingerprint: read.fingerprint } : read.type)),
      texts.map((bytes, i) => ({ json: i === 1 ? `"${bytes.toString('base64')}"` : Buffer.from(JSON.stringify(bytes.toString('utf8'))).toString('latin1'), base64: i === 1, fingerprint: fingerprintBytesForTest(bytes) })),
    );
    for (const [i, read] of ahead.slice(0, texts.length).entries()) assert.ok(read.type === 'json' && readJsonText(read.json, read.base64).equals(texts[i]!), 'the text gives its bytes back');
  });
});

describe('files read ahead, when the export stops', () => {
  it('batches read ahead that fail because the client went away are let go, not left as unhandled rejections that end the process', async () => {
    const names = Array.from({ length: 400 }, (_, i) => `stop-${String(i).padStart(3, '0')}.json`);
    for (const name of names) writeFileSync(join(root, 'session', name), JSON.stringify({ name }));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const abort = new AbortController();
      const ahead = readFilesAhead(lane, names.map((name) => ({ path: join(root, 'session', name), size: 20 })), { root }, abort.signal);
      const first = await ahead.next();
      assert.equal(first.done, false);
      // The export now sends its first batch while the next are read; its client goes away meanwhile.
      abort.abort(new Error('the client went away'));
      await new Promise((resolve) => setTimeout(resolve, 200));
      await ahead.return(undefined);
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
