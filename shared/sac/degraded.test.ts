import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectDegraded, describeReason, DEGRADED_CODES, type DegradedReason } from './degraded.ts';
import { createSeatFileReading, noteSeatFileChanged, noteSeatFileUnreadable, readSeatFile } from './seatFile.ts';
import { readCursors, readMembers, readRegistry } from './storeFiles.ts';
import { bytesOf } from './testing/sacWriter.ts';

const read = (seat: string, text: string, pendingWindowPassed = false) =>
  readSeatFile(createSeatFileReading('team', seat), bytesOf(text), 0, { pendingWindowPassed });

describe('degraded reasons of the channels', () => {
  it('a torn entry, stray text, a changed file, an unreadable file and a corrupt store file each give their code and the files they rest on', () => {
    const torn = read('a#1', '## 2026-11-30T17:18:53.482+00:00 — FACT\nfine\n\n## 2026-11-30T17:18:53.590+00:00 — FA', true);
    const stray = read('b#2', 'by hand\n## 2026-11-30T17:18:53.482+00:00 — FACT\nfine\n');
    const changed = noteSeatFileChanged(read('c#3', '## 2026-11-30T17:18:53.482+00:00 — FACT\nfine\n'), 'bytes already read are different');
    const unreadable = noteSeatFileUnreadable(createSeatFileReading('team', 'd#4'), 'permission denied');
    const reasons = collectDegraded([torn, stray, changed, unreadable], {
      registry: readRegistry({ state: 'read', bytes: bytesOf('{"agents": {') }),
      cursors: readCursors({ state: 'unreadable', why: 'permission denied' }),
      members: readMembers({ state: 'read', bytes: bytesOf('{"a#1": {"rooms": "team"}}') }),
    });
    assert.deepEqual(reasons, [
      { code: 'torn-entry', files: ['channels/team/a#1.md'], ranges: [{ file: 'channels/team/a#1.md', start: 48, end: 87 }] },
      { code: 'changed-after-read', files: ['channels/team/c#3.md'] },
      { code: 'corrupt-store-file', files: ['registry.json'] },
      { code: 'invalid-store-record', files: ['members.json'] },
      { code: 'unreadable', files: ['channels/team/d#4.md', 'cursors.json'] },
      { code: 'stray-text', files: ['channels/team/b#2.md'], ranges: [{ file: 'channels/team/b#2.md', start: 0, end: 8 }] },
    ]);
  });

  it('a torn write that left a header and part of a line is one torn write, not two', () => {
    const torn = read('a#1', '## 2026-11-30T17:18:53.482+00:00 — FACT\nfine\n\n## 2026-11-30T17:18:53.590+00:00 — FACT\nhal', true);
    assert.deepEqual(
      torn.items.map((item) => [item.type, item.evidence]),
      [
        ['entry', 'parsed'],
        ['entry', 'damaged'],
      ],
    );
    assert.equal(torn.items.at(-1)!.end, torn.size);
    const [reason] = collectDegraded([torn]);
    assert.deepEqual(reason!.ranges, [{ file: 'channels/team/a#1.md', start: 48, end: torn.size }]);
    assert.match(describeReason(reason!), /^1 torn write in channels\/team\/a#1\.md:/);
  });

  it('a pending write is not a reason: it is being written', () => {
    assert.deepEqual(collectDegraded([read('a#1', '## 2026-11-30T17:18:53.482+00:00 — FACT\nfine\n\n## 2026-11-30T17:18:53.590+00:00 — FA')]), []);
  });

  it('an absent store file is not a reason: nothing was declared in it', () => {
    assert.deepEqual(collectDegraded([], { registry: readRegistry({ state: 'absent' }) }), []);
  });

  it('every reason reads in plain words that never say nothing happened', () => {
    const reasons: DegradedReason[] = DEGRADED_CODES.map((code) => ({ code, files: ['registry.json'], ranges: [{ file: 'registry.json', start: 0, end: 1 }] }));
    for (const reason of reasons) {
      const words = describeReason(reason);
      assert.ok(words.length > 20, reason.code);
      assert.doesNotMatch(words, /nothing (was )?(said|sent|happened)\b(?!,)/i, reason.code);
    }
    assert.match(describeReason({ code: 'corrupt-store-file', files: ['registry.json'] }), /unknown, not empty.*liveness: unknown/);
    assert.match(describeReason({ code: 'torn-entry', files: ['channels/team/a#1.md'], ranges: [{ file: 'channels/team/a#1.md', start: 0, end: 3 }] }), /^1 torn write in channels\/team\/a#1\.md: a write stopped part way/);
    const two = { code: 'torn-entry' as const, files: ['channels/team/a#1.md', 'channels/team/b#1.md'], ranges: [{ file: 'channels/team/a#1.md', start: 0, end: 3 }, { file: 'channels/team/a#1.md', start: 9, end: 12 }, { file: 'channels/team/b#1.md', start: 0, end: 3 }] };
    assert.match(describeReason(two), /^3 torn writes in 2 seat files \(channels\/team\/a#1\.md, channels\/team\/b#1\.md\)/);
  });
});
