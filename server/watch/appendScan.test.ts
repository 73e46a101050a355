import assert from 'node:assert/strict';
import { linkSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startAppendScan, type AppendScan, type AppendScanned, type AppendScanWork } from './appendScan.ts';

// The first-scan thread every append-only kind can use: it claims files from the end of the line,
// reads them through the safe open with the kind's rules, and hands back what the kind's core made.

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A kind's core, by module and export as the thread takes it: the bytes' length, or null for a file that holds `wait`. */
const READER = {
  module: `data:text/javascript,${encodeURIComponent('export function readLength(bytes) { return new TextDecoder().decode(bytes).includes("wait") ? null : { offset: bytes.length, value: bytes.length, transfer: [] }; }')}`,
  name: 'readLength',
};

function writeFiles(count: number): { root: string; paths: string[] } {
  const root = mkdtempSync(join(tmpdir(), 'append-scan-'));
  made.push(root);
  const paths = Array.from({ length: count }, (_, i) => join(root, `file-${i}.md`));
  paths.forEach((path, i) => writeFileSync(path, 'x'.repeat(i + 1)));
  return { root, paths };
}

/** A thread started, then handed its line. */
function startLine(work: AppendScanWork, paths: string[], onError: (message: string) => void): AppendScan | null {
  return startAppendScan(work, onError)?.read(paths) ?? null;
}

/** Everything the thread hands over, taken until it ends. */
async function takeAll(scan: AppendScan): Promise<AppendScanned[]> {
  const taken: AppendScanned[] = [];
  while (!scan.ended) {
    await scan.arrival();
    taken.push(...scan.take());
  }
  taken.push(...scan.take());
  return taken;
}

describe('a first scan on a second thread', () => {
  it('reads every file of the line the caller leaves it, once, with the mark an append is read on from', async () => {
    const { root, paths } = writeFiles(40);
    const scan = startLine({ root, secretPrefixes: [], reader: READER }, paths, (message) => assert.fail(message));
    assert.ok(scan);
    const taken = await takeAll(scan);
    assert.deepEqual(taken.map((file) => file.index).sort((a, b) => a - b), paths.map((_, i) => i));
    for (const { index, read } of taken) {
      assert.equal(read?.value, index + 1);
      assert.equal(read?.mark.offset, index + 1);
      assert.notEqual(read?.mark.check, '');
    }
    await scan.stop();
  });

  it('a file the caller claimed first is never read by the thread', async () => {
    const { root, paths } = writeFiles(40);
    const scan = startLine({ root, secretPrefixes: [], reader: READER }, paths, (message) => assert.fail(message));
    assert.ok(scan);
    for (let i = 0; i < 25; i++) assert.equal(scan.claim(i), true);
    const taken = await takeAll(scan);
    assert.deepEqual(taken.map((file) => file.index).sort((a, b) => a - b), paths.map((_, i) => i).slice(25));
    await scan.stop();
  });

  it('hands back unread a file that is a secret under another name, a link, or one its core declines', async () => {
    const { root, paths } = writeFiles(6);
    writeFileSync(join(root, 'relays.json'), 'a secret');
    rmSync(paths[5]!);
    linkSync(join(root, 'relays.json'), paths[5]!);
    rmSync(paths[4]!);
    symlinkSync(paths[0]!, paths[4]!);
    writeFileSync(paths[3]!, 'a line that will wait for its writer');
    const scan = startLine({ root, secretPrefixes: ['relays.json'], reader: READER }, paths, (message) => assert.fail(message));
    assert.ok(scan);
    const taken = new Map((await takeAll(scan)).map((file) => [file.index, file.read]));
    assert.equal(taken.get(5), null, 'the secret');
    assert.equal(taken.get(4), null, 'the link');
    assert.equal(taken.get(3), null, 'the declined');
    assert.equal(taken.get(2)?.value, 3);
    await scan.stop();
  });

  it('a thread started before its line is listed reads the files written meanwhile, and never a secret made and linked meanwhile', async () => {
    const { root, paths } = writeFiles(8);
    const thread = startAppendScan({ root, secretPrefixes: ['relays.json'], reader: READER }, (message) => assert.fail(message));
    assert.ok(thread);
    // Given time to start up and look about it: the secret comes after.
    await new Promise((resolve) => setTimeout(resolve, 500));
    writeFileSync(join(root, 'relays.json'), 'a secret');
    const more = [join(root, 'written-after-start.md'), join(root, 'linked-after-start.md')];
    writeFileSync(more[0]!, 'y'.repeat(50));
    linkSync(join(root, 'relays.json'), more[1]!);
    const scan = thread.read([...paths, ...more]);
    const taken = new Map((await takeAll(scan)).map((file) => [file.index, file.read]));
    assert.equal(taken.get(8)?.value, 50, 'written after the thread started');
    assert.equal(taken.get(9), null, 'the secret under another name, linked after the thread started');
    assert.equal(taken.get(0)?.value, 1);
    await scan.stop();
  });

  it('a thread never handed a line is stopped, and hands nothing over', async () => {
    const { root } = writeFiles(3);
    const thread = startAppendScan({ root, secretPrefixes: [], reader: READER }, (message) => assert.fail(message));
    assert.ok(thread);
    await thread.stop();
    const scan = thread.read([join(root, 'file-0.md')]);
    assert.equal(scan.ended, true);
    assert.deepEqual(scan.take(), []);
    assert.equal(scan.claim(0), true, 'the file is the caller\'s');
  });

  it('a thread that fails leaves every file to the caller, and says why', async () => {
    const { root, paths } = writeFiles(10);
    const errors: string[] = [];
    const scan = startLine({ root, secretPrefixes: [], reader: { module: 'data:text/javascript,throw new Error("no such core")', name: 'readLength' } }, paths, (message) => errors.push(message));
    assert.ok(scan);
    assert.deepEqual(await takeAll(scan), []);
    assert.match(errors.join('\n'), /no such core/);
    for (let i = 0; i < paths.length; i++) assert.equal(scan.claim(i), true, `file ${i} is the caller's`);
    await scan.stop();
  });
});
