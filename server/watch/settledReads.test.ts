import assert from 'node:assert/strict';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readStoreFile, type StoreFileInput } from '../../shared/sac/storeFiles.ts';
import { createPendingTails } from './pendingTails.ts';
import { createSettledReads } from './settledReads.ts';
import { eventually } from '../test/harness.ts';

// Files written whole and renamed into place, written again and again: read once they settle,
// the last one always, a large one off the event loop; and unfinished bytes timed from the first
// look at them.

const root = mkdtempSync(join(tmpdir(), 'rec-settled-'));
after(() => rmSync(root, { recursive: true, force: true }));
const PARSER = { module: new URL('../../shared/sac/storeFiles.ts', import.meta.url).href, name: 'readStoreFile' };

/** Writes a file as sac's writeJson does: whole, to a temporary, renamed into place. */
function writeWhole(name: string, text: string): void {
  writeFileSync(join(root, `${name}.tmp.1`), text);
  renameSync(join(root, `${name}.tmp.1`), join(root, name));
}

describe('settled reads', () => {
  it('a file rewritten a hundred times in a burst is read far fewer times, and the last rewrite is what it ends with', async () => {
    const parsed: string[] = [];
    const reads = createSettledReads({
      rules: { root },
      parse: (name, input: StoreFileInput) => {
        const text = input.state === 'read' ? new TextDecoder().decode(input.bytes) : input.state;
        parsed.push(text);
        return text;
      },
      parser: PARSER,
      onRead: () => {},
    });
    try {
      for (let i = 0; i < 100; i++) {
        writeWhole('focus.json', `{"version": ${i}}`);
        reads.touch(join(root, 'focus.json'), 'focus.json');
        if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await eventually(() => (parsed.at(-1) === '{"version": 99}' ? true : undefined), 'the last rewrite');
      assert.ok(parsed.length < 20, `${parsed.length} reads of 100 rewrites`);
      const count = parsed.length;
      reads.touch(join(root, 'focus.json'), 'focus.json');
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(parsed.length, count, 'bytes that did not change are not parsed again');
    } finally {
      reads.close();
    }
  });

  it('a large file is read and parsed by a worker, and what it made comes back whole, its long lists in place', async () => {
    const seats: Record<string, unknown> = {};
    for (let i = 0; i < 12_000; i++) seats[`agent#${i.toString(16).padStart(8, '0')}`] = { session: `session-${i}`, rooms: ['team'], lastSeen: '2026-11-30T17:18:53.872+00:00' };
    const text = JSON.stringify({ agents: { agent: { project: '/p', seats } } });
    assert.ok(text.length > 1024 * 1024, 'large enough to leave the event loop');
    writeWhole('registry.json', text);
    const values: unknown[] = [];
    let parsedHere = 0;
    const reads = createSettledReads({
      rules: { root },
      parse: (name, input) => {
        parsedHere++;
        return readStoreFile(name as 'registry.json', input);
      },
      parser: PARSER,
      onRead: (_name, value) => values.push(value),
    });
    try {
      await reads.readNow(join(root, 'registry.json'), 'registry.json');
      assert.equal(parsedHere, 0, 'not parsed on the event loop');
      assert.deepEqual(values[0], readStoreFile('registry.json', { state: 'read', bytes: new TextEncoder().encode(text) }));
    } finally {
      reads.close();
    }
  });

  it('a file that is gone is read as absent, and one that is a link is not read', async () => {
    const values: unknown[] = [];
    const reads = createSettledReads({ rules: { root }, parse: (_name, input) => input.state, parser: PARSER, onRead: (_name, value) => values.push(value) });
    try {
      reads.readNow(join(root, 'rooms.json'), 'rooms.json');
      assert.deepEqual(values, ['absent']);
      writeFileSync(join(root, 'elsewhere.json'), '{}');
      const { symlinkSync } = await import('node:fs');
      symlinkSync(join(root, 'elsewhere.json'), join(root, 'members.json'));
      reads.readNow(join(root, 'members.json'), 'members.json');
      assert.deepEqual(values, ['absent', 'unreadable']);
    } finally {
      reads.close();
    }
  });
});

describe('pending tails', () => {
  it('unfinished bytes seen fresh are pending, and are looked at again on a timer until they are past the window', async () => {
    const again: string[] = [];
    const tails = createPendingTails((key) => again.push(key));
    try {
      assert.equal(tails.look('a', '10', Date.now()), false);
      await eventually(() => (again.includes('a') ? true : undefined), 'a look again');
      // The same place keeps its first look: looking again does not start the window over.
      assert.equal(tails.look('a', '10', Date.now() + 3_600_000), false);
    } finally {
      tails.close();
    }
  });

  it('unfinished bytes in a file already older than the window at the first look are past it at once; another place is another wait', () => {
    const tails = createPendingTails(() => {});
    try {
      assert.equal(tails.look('b', '0', Date.now() - 60_000), true);
      assert.equal(tails.look('b', '0', Date.now()), true, 'torn stays torn at that place');
      assert.equal(tails.look('b', '42', Date.now()), false, 'a line completed, and a new one begun');
      tails.settle('b');
      assert.equal(tails.look('b', '0', Date.now()), false, 'settled: a first look again');
    } finally {
      tails.close();
    }
  });
});
