import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createRootPoll, type RootLook } from './rootPoll.ts';
import { createStirBatch, type Stirred } from './stirBatch.ts';
import { createStoreWatch, type StoreWalker } from './storeWatch.ts';
import { listStoreFolder } from './listFolder.ts';
import { eventually } from '../test/harness.ts';

// The watch loop's pieces: the root looked at on a timer, events gathered into batches, and the
// loop that walks a store, takes what stirred and reads it again when it comes back.

const base = mkdtempSync(join(tmpdir(), 'rec-store-watch-'));
after(() => rmSync(base, { recursive: true, force: true }));

describe('root polling', () => {
  it('tells a root that goes, that comes back, and that is another folder under its path', async () => {
    const root = join(base, 'polled');
    mkdirSync(root);
    const told: RootLook[] = [];
    const poll = createRootPoll(root, (look) => told.push(look), 20);
    try {
      assert.equal(poll.start().state, 'present');
      const first = told[0]!;
      renameSync(root, `${root}.away`);
      await eventually(() => (told.at(-1)?.state === 'missing' ? true : undefined), 'gone');
      renameSync(`${root}.away`, root);
      const back = await eventually(() => (told.at(-1)?.state === 'present' ? told.at(-1) : undefined), 'back');
      assert.deepEqual(back, first, 'the same folder, moved back');
      rmSync(root, { recursive: true });
      mkdirSync(root);
      const again = await eventually(() => {
        const last = told.at(-1);
        return last?.state === 'present' && told.length > 3 ? last : undefined;
      }, 'made again');
      assert.notDeepEqual(again, first, 'another folder is another identity');
      const count = told.length;
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(told.length, count, 'a root that stays as it is is told once');
    } finally {
      poll.stop();
    }
  });
});

describe('batching', () => {
  it('gathers a burst of events into one take at the next turn, each folder once with every name', async () => {
    const takes: Stirred[] = [];
    const batch = createStirBatch((stirred) => takes.push(stirred));
    for (let i = 0; i < 1000; i++) batch.stir(`/folder-${i % 3}`, `name-${i % 7}`);
    batch.stir('/folder-0', null);
    assert.equal(takes.length, 0, 'nothing is taken while the burst comes');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(takes.length, 1);
    assert.deepEqual([...takes[0]!.keys()].sort(), ['/folder-0', '/folder-1', '/folder-2']);
    assert.equal(takes[0]!.get('/folder-0')!.size, 8, 'seven names and a listing');
    batch.close();
  });
});

describe('the watch loop', () => {
  /** A walker over one folder of files: what it lists and what each read found. */
  function fileWalker(root: string) {
    const read = new Map<string, number>();
    const taken: Stirred[] = [];
    let watch: ReturnType<typeof createStoreWatch> | null = null;
    const walker: StoreWalker = {
      *walk() {
        watch!.watch(root);
        const listing = listStoreFolder(root, root);
        if (listing.type !== 'listed') return;
        for (const entry of listing.entries) {
          read.set(entry.name, (read.get(entry.name) ?? 0) + 1);
          yield;
        }
      },
      take(stirred) {
        taken.push(stirred);
        for (const names of stirred.values()) for (const name of names) if (name !== null) read.set(name, (read.get(name) ?? 0) + 1);
      },
      forget: () => read.clear(),
      count: () => read.size,
    };
    return { read, taken, walker, bind: (bound: ReturnType<typeof createStoreWatch>) => (watch = bound) };
  }

  it('is ready once its walk is done, takes what stirs, and reads a root that went and came back again, as the store it is now', async () => {
    const root = join(base, 'watched');
    mkdirSync(root);
    for (let i = 0; i < 50; i++) writeFileSync(join(root, `file-${i}`), `${i}`);
    const files = fileWalker(root);
    const statuses: string[] = [];
    const watch = createStoreWatch({ root, walker: files.walker, onStatus: () => statuses.push(`${watch.status().state}/${watch.status().indexing.state}`), reconcileMs: 60_000, rootPollMs: 50 });
    files.bind(watch);
    try {
      await watch.start();
      assert.deepEqual(watch.status().indexing, { state: 'ready', files: 50 });
      appendFileSync(join(root, 'file-7'), 'more');
      await eventually(() => (files.taken.some((stirred) => stirred.get(root)?.has('file-7')) ? true : undefined), 'the append taken');
      renameSync(root, `${root}.away`);
      await eventually(() => (watch.status().state === 'missing' ? true : undefined), 'missing');
      assert.equal(files.read.size, 0, 'what was read of a root that went is forgotten');
      writeFileSync(join(`${root}.away`, 'file-new'), 'written while away');
      renameSync(`${root}.away`, root);
      await eventually(() => (watch.status().indexing.state === 'ready' && files.read.size === 51 ? true : undefined), 'read again');
      assert.ok(statuses.includes('missing/waiting'));
      assert.equal(statuses.at(-1), 'present/ready');
    } finally {
      await watch.close();
    }
  });
});
