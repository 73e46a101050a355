import assert from 'node:assert/strict';
import fs, { appendFileSync, mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { mayOpen } from '../../shared/sac/layout.ts';
import { listEntries } from '../../shared/sac/seatFile.ts';
import { appendedBytes } from '../../shared/sac/testing/sacWriter.ts';
import { removeStores, startReader, until, writeExampleStore } from '../test/sacReaderRig.ts';
import type { SacReader } from './sacReader.ts';

const made: string[] = [];
after(() => removeStores(made));

const WEB = 'web-app#3f9c1a20';

describe('the sac reader', () => {
  it("reads every room, seat file and store file of a store as sac wrote it; sac's own nudges and stats are no strays, a name sac does not write is", async () => {
    const root = writeExampleStore(made);
    writeFileSync(join(root, 'nudges.json'), '{}');
    mkdirSync(join(root, 'stats'));
    writeFileSync(join(root, 'notes.txt'), 'a person left this here');
    const { reader } = await startReader(root);
    try {
      assert.equal(reader.status().indexing.state, 'ready');
      const team = reader.room('team');
      assert.ok(team);
      assert.deepEqual(team.files.map((file) => file.seat).sort(), ['api-service#c4e10000', WEB]);
      assert.equal(listEntries(reader.seatFile('team', 'api-service#c4e10000')!.reading).length, 3);
      assert.equal(reader.store().registry.state, 'read');
      assert.deepEqual(reader.strays(), ['notes.txt']);
    } finally {
      await reader.close();
    }
  });

  it('reads an append from the offset it remembered, and tells of the room at once', async () => {
    const root = writeExampleStore(made);
    const { reader, changes } = await startReader(root);
    try {
      const file = join(root, 'channels/team', `${WEB}.md`);
      const before = reader.seatFile('team', WEB)!.reading.offset;
      appendFileSync(file, appendedBytes(before, { ts: '2026-11-30T17:20:00.000+00:00', type: 'FACT', text: 'appended' }));
      await until(() => (changes.some((change) => change.rooms.includes('team')) ? true : undefined), 'a change of team');
      const reading = reader.seatFile('team', WEB)!.reading;
      assert.equal(listEntries(reading).length, 2);
      assert.ok(reading.offset > before);
    } finally {
      await reader.close();
    }
  });

  it('says a seat file that shrank was changed after it was read, and reads nothing more of it', async () => {
    const root = writeExampleStore(made);
    const { reader } = await startReader(root);
    try {
      const file = join(root, 'channels/team', 'api-service#c4e10000.md');
      truncateSync(file, 20);
      await until(() => (reader.seatFile('team', 'api-service#c4e10000')!.reading.problem?.code === 'changed-after-read' ? true : undefined), 'changed after read');
      assert.equal(listEntries(reader.seatFile('team', 'api-service#c4e10000')!.reading).length, 3);
    } finally {
      await reader.close();
    }
  });

  it('says a store file that does not parse is unknown, not empty', async () => {
    const root = writeExampleStore(made);
    writeFileSync(join(root, 'registry.json'), '{"agents": {');
    const { reader } = await startReader(root);
    try {
      const registry = reader.store().registry;
      assert.equal(registry.state, 'unknown');
    } finally {
      await reader.close();
    }
  });

  it('ignores writers’ temporaries and dot-folders, and leaves an archived room out', async () => {
    const root = writeExampleStore(made);
    mkdirSync(join(root, 'channels/.archive/old'), { recursive: true });
    writeFileSync(join(root, 'channels/.archive/old/web-app.md'), '## 2026-11-30T17:00:00.000+00:00 — FACT\nold\n');
    writeFileSync(join(root, 'channels/team/web-app#3f9c1a20.md.tmp.4242'), 'a temporary');
    writeFileSync(join(root, 'registry.json.tmp.99'), '{}');
    const { reader } = await startReader(root);
    try {
      assert.deepEqual(reader.rooms().map((room) => room.room), ['team']);
      assert.equal(reader.room('team')!.files.length, 2);
      assert.ok(!reader.strays().some((name) => name.includes('.tmp.')));
    } finally {
      await reader.close();
    }
  });

  it('opens no path its allowlist refuses: secrets are never opened, even when watched or listed', async () => {
    const root = writeExampleStore(made);
    writeFileSync(join(root, 'relays.json'), '{"secret":"CANARY-relay"}');
    writeFileSync(join(root, 'http-tokens.json'), '{"t":"CANARY-token"}');
    const opened: string[] = [];
    const original = fs.openSync;
    fs.openSync = ((path: fs.PathLike, ...rest: unknown[]) => {
      // Folders are opened to be listed (never a file's bytes): the allowlist judges files.
      // A file is opened by its name in its folder's descriptor (/proc/self/fd/<folder>/<name>): said as its path.
      const through = /^\/proc\/self\/fd\/(\d+)(\/.*)$/.exec(String(path));
      const named = through === null ? String(path) : fs.readlinkSync(`/proc/self/fd/${through[1]}`) + through[2];
      if (typeof rest[0] !== 'number' || (rest[0] & fs.constants.O_DIRECTORY) === 0) opened.push(named);
      return (original as (...args: unknown[]) => number)(path, ...rest);
    }) as typeof fs.openSync;
    syncBuiltinESMExports();
    let reader: SacReader | null = null;
    try {
      ({ reader } = await startReader(root));
      writeFileSync(join(root, 'relays.json'), '{"secret":"CANARY-relay-2"}');
      appendFileSync(join(root, 'channels/team', `${WEB}.md`), appendedBytes(1, { ts: '2026-11-30T17:22:00.000+00:00', type: 'FACT', text: 'x' }));
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      fs.openSync = original;
      syncBuiltinESMExports();
      await reader?.close();
    }
    const real = fs.realpathSync(root);
    const mine = opened.filter((path) => path.startsWith(real)).map((path) => path.slice(real.length + 1));
    assert.ok(mine.length > 0, 'the reader opened the store’s files');
    for (const path of mine) assert.ok(mayOpen(path), `opened ${path}`);
    assert.ok(!mine.some((path) => path.includes('relays') || path.includes('http-tokens')));
  });

  it('keeps each seat file’s entries as it read them when the next file is read into the same buffer', async () => {
    const root = writeExampleStore(made);
    // Headers of every form the core reads from its bytes: addressees, a reply, a time not in the writer's form.
    const seats = ['alpha#00000001', 'beta#00000002', 'gamma#00000003'];
    seats.forEach((seat, i) => {
      const entries = [
        { ts: `2026-11-0${i + 1}T10:00:00.000+02:00`, type: 'FACT', text: `first of ${seat}`, to: [`to-${seat}`] },
        { ts: `2026-11-0${i + 1}T11:00`, type: ['QUESTION', 'KÉRDÉS', 'TÉNY'][i]!, text: `second of ${seat}`, re: `re-${seat}` },
      ];
      let text = '';
      for (const entry of entries) text += appendedBytes(Buffer.byteLength(text), entry);
      mkdirSync(join(root, 'channels', 'scratch'), { recursive: true });
      writeFileSync(join(root, 'channels', 'scratch', `${seat}.md`), text);
    });
    const { reader } = await startReader(root);
    try {
      for (const [i, seat] of seats.entries()) {
        const entries = listEntries(reader.seatFile('scratch', seat)!.reading);
        assert.equal(entries.length, 2, seat);
        assert.deepEqual(entries[0]!.facts.to, [`to-${seat}`], seat);
        assert.equal(entries[1]!.facts.typeWord, ['QUESTION', 'KÉRDÉS', 'TÉNY'][i], seat);
        assert.equal(entries[1]!.facts.re, `re-${seat}`, seat);
        assert.equal(entries[1]!.facts.time, `2026-11-0${i + 1}T11:00`, seat);
      }
    } finally {
      await reader.close();
    }
  });
});
