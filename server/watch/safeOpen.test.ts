import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs, { linkSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { listStoreFolder } from './listFolder.ts';
import { readRanges, readWhole } from './safeOpen.ts';
import { createSecretFiles } from './secretFiles.ts';

// The one safe open, as every reader meets it: a store's root with its own files, and beside it a
// folder outside the store that links lead to.

const base = mkdtempSync(join(tmpdir(), 'rec-safe-open-'));
after(() => rmSync(base, { recursive: true, force: true }));
const root = join(base, 'store');
const outside = join(base, 'outside');
mkdirSync(join(root, 'inside'), { recursive: true });
mkdirSync(outside, { recursive: true });
writeFileSync(join(root, 'inside', 'plain.txt'), 'inside the store');
writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE THE STORE');
const rules = { root };

describe('the one safe open', () => {
  it('reads a regular file inside the store whole, with its size, mtime and identity', () => {
    const read = readWhole(join(root, 'inside', 'plain.txt'), rules);
    assert.equal(read.type, 'bytes');
    assert.ok(read.type === 'bytes' && read.bytes.toString() === 'inside the store' && read.size === 16 && read.identity.ino > 0);
  });

  it('never follows a link, whatever it points at: the link is refused as a link', () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'inside', 'link.txt'));
    symlinkSync(join(root, 'inside', 'plain.txt'), join(root, 'inside', 'link-in.txt'));
    for (const name of ['link.txt', 'link-in.txt']) {
      const read = readWhole(join(root, 'inside', name), rules);
      assert.equal(read.type === 'refused' && read.refusal, 'link', name);
    }
  });

  it('refuses a file reached through a folder that is a link out of the store, checked on the real path of what was opened', () => {
    symlinkSync(outside, join(root, 'escape'));
    const read = readWhole(join(root, 'escape', 'secret.txt'), rules);
    assert.equal(read.type === 'refused' && read.refusal, 'outside');
    // A folder swapped for a link after it was listed is caught the same way.
    mkdirSync(join(root, 'swapped'));
    writeFileSync(join(root, 'swapped', 'secret.txt'), 'was inside');
    renameSync(join(root, 'swapped'), join(base, 'swapped-away'));
    symlinkSync(outside, join(root, 'swapped'));
    const swapped = readRanges([{ path: join(root, 'swapped', 'secret.txt'), start: 0, end: 5 }], rules)[0]!;
    assert.equal(swapped.type === 'refused' && swapped.refusal, 'outside');
  });

  it('lists no folder outside the store, and never through a link; the root itself may be one', () => {
    assert.equal(listStoreFolder(join(root, 'escape'), root).type, 'refused');
    assert.equal(listStoreFolder(join(root, 'inside'), root).type, 'listed');
    symlinkSync(root, join(base, 'root-link'));
    const viaLink = listStoreFolder(join(base, 'root-link'), join(base, 'root-link'));
    assert.ok(viaLink.type === 'listed' && viaLink.entries.some((entry) => entry.name === 'inside'));
    assert.equal(readWhole(join(base, 'root-link', 'inside', 'plain.txt'), { root: join(base, 'root-link') }).type, 'bytes');
  });

  it('refuses a hard link to a secret by its device and inode, without opening it, and keeps refusing it once the secret is written anew', () => {
    writeFileSync(join(root, 'relays.json'), '{"secret":"RELAY"}');
    linkSync(join(root, 'relays.json'), join(root, 'inside', 'seat.md'));
    const secrets = createSecretFiles([{ root, prefixes: ['relays.json'] }]);
    const read = readWhole(join(root, 'inside', 'seat.md'), { root, secrets });
    assert.equal(read.type === 'refused' && read.refusal, 'secret');
    // The secret is written again (a new inode, renamed into place): the old one, still linked, is still refused.
    writeFileSync(join(root, 'relays.json.tmp'), '{"secret":"NEW"}');
    renameSync(join(root, 'relays.json.tmp'), join(root, 'relays.json'));
    secrets.look();
    const again = readWhole(join(root, 'inside', 'seat.md'), { root, secrets });
    assert.equal(again.type === 'refused' && again.refusal, 'secret');
    assert.equal(readWhole(join(root, 'inside', 'plain.txt'), { root, secrets }).type, 'bytes', 'a file of one name is read');
  });

  it('refuses a named pipe at once, never waiting on it, and a folder', () => {
    const fifo = join(root, 'inside', 'pipe');
    execFileSync('mkfifo', [fifo]);
    const read = readWhole(fifo, rules);
    assert.ok(read.type === 'refused' && read.refusal === 'not-a-file' && /named pipe/.test(read.why));
    const folder = readWhole(join(root, 'inside'), rules);
    assert.equal(folder.type === 'refused' && folder.refusal, 'folder');
  });

  it('refuses a file larger than the bound read whole, and says its size', () => {
    writeFileSync(join(root, 'inside', 'large.txt'), 'x'.repeat(2048));
    const read = readWhole(join(root, 'inside', 'large.txt'), { root, maxBytes: 1024 });
    assert.ok(read.type === 'refused' && read.refusal === 'too-large' && read.size === 2048);
  });

  it('says a missing file is missing, and a range of a file read before that is now another file changed', () => {
    assert.equal(readWhole(join(root, 'inside', 'none.txt'), rules).type, 'missing');
    const path = join(root, 'inside', 'range.txt');
    writeFileSync(path, 'first version');
    const first = readWhole(path, rules);
    assert.ok(first.type === 'bytes');
    const [same] = readRanges([{ path, start: 6, end: 13, identity: first.identity }], rules);
    assert.equal(same!.type === 'bytes' && same!.bytes.toString(), 'version');
    writeFileSync(join(root, 'inside', 'other.txt'), 'first version');
    renameSync(join(root, 'inside', 'other.txt'), path);
    assert.equal(readRanges([{ path, start: 0, end: 5, identity: first.identity }], rules)[0]!.type, 'changed');
    assert.equal(readRanges([{ path, start: 0, end: 500 }], rules)[0]!.type, 'changed', 'shorter than the range');
    rmSync(path);
    assert.equal(readRanges([{ path, start: 0, end: 5 }], rules)[0]!.type, 'changed', 'gone: the writer never removes one');
  });

  it('opens a folder once to list it and read a file in it in the same turn: the listing checked it, and stays open for the file', () => {
    mkdirSync(join(root, 'listed'));
    writeFileSync(join(root, 'listed', 'a.txt'), 'listed then read');
    const folderOpens: string[] = [];
    const original = fs.openSync;
    fs.openSync = ((path: fs.PathLike, ...rest: unknown[]) => {
      if (typeof rest[0] === 'number' && (rest[0] & fs.constants.O_DIRECTORY) !== 0) folderOpens.push(String(path));
      return (original as (...args: unknown[]) => number)(path, ...rest);
    }) as typeof fs.openSync;
    syncBuiltinESMExports();
    try {
      assert.equal(listStoreFolder(join(root, 'listed'), root).type, 'listed');
      const read = readWhole(join(root, 'listed', 'a.txt'), rules);
      assert.equal(read.type === 'bytes' && read.bytes.toString(), 'listed then read');
    } finally {
      fs.openSync = original;
      syncBuiltinESMExports();
    }
    assert.deepEqual(folderOpens, [join(root, 'listed')]);
  });

  it('keeps a listed folder open no longer than the turn: swapped for a link out of the store after it, a file in it is refused', async () => {
    mkdirSync(join(root, 'turned'));
    writeFileSync(join(root, 'turned', 'secret.txt'), 'inside');
    assert.equal(listStoreFolder(join(root, 'turned'), root).type, 'listed');
    await new Promise((resolve) => setImmediate(resolve));
    renameSync(join(root, 'turned'), join(base, 'turned-away'));
    symlinkSync(outside, join(root, 'turned'));
    const read = readWhole(join(root, 'turned', 'secret.txt'), rules);
    assert.equal(read.type === 'refused' && read.refusal, 'outside');
  });
});
