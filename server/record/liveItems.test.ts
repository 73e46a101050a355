import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { concludeObservation } from '../../shared/record/observation.ts';
import type { KnownFile } from '../../shared/record/knownFile.ts';
import { fileOf, nameAt, sentEntry, startEntry, SESSION } from '../../shared/test/recordFixtures.ts';
import { foldSession } from '../../shared/record/session.ts';
import { firstLineOf } from '../../shared/firstLine.ts';
import { projectLiveItems, type FileChange } from './liveItems.ts';

function project(files: KnownFile[], changed: Record<string, FileChange>) {
  return projectLiveItems(
    { source: 'record-0123abcd', sessionId: SESSION, file: (name) => files.find((file) => file.name === name), fold: () => foldSession(SESSION, files), readAgain: () => null },
    new Map(Object.entries(changed)),
  );
}

describe('live items of the record', () => {
  it('a first line keeps its carriage return and tabs as written, and is never cut inside a pair', () => {
    assert.equal(firstLineOf('a\tb\r\nsecond'), 'a\tb\r');
    assert.equal(firstLineOf(`${'x'.repeat(199)}😀`), 'x'.repeat(199));
    assert.equal(firstLineOf('x'.repeat(250)).length, 200);
  });

  it('a file removed after it was read keeps its side and peer, says it was removed, and is degraded evidence without a first line', () => {
    const sent = fileOf(nameAt(1, 2), sentEntry(1, 'hello'));
    const removed = concludeObservation(sent, sent, { type: 'gone' }, Date.now())!;
    const [item] = project([fileOf(nameAt(0, 1), startEntry(0)), removed], { [removed.name]: { isNew: false, seen: undefined } });
    assert.equal(item?.evidence, 'removed');
    assert.equal(item?.side, 'sent');
    assert.equal(item?.peer, 'uds:/tmp/cc-socks/4242.sock');
    assert.equal(item?.degraded, true);
    assert.equal(item?.firstLine, null);
    assert.match(item!.words, /^removed after it was read/);
  });

  it('items of one flush are told in session order, whatever order they changed in', () => {
    const files = [fileOf(nameAt(0, 1), startEntry(0)), fileOf(nameAt(1, 2), sentEntry(1, 'one')), fileOf(nameAt(2, 3), sentEntry(2, 'two'))];
    const items = project(files, {
      [nameAt(2, 3)]: { isNew: true, seen: { firstLine: 'two', reason: null } },
      [nameAt(1, 2)]: { isNew: true, seen: { firstLine: 'one', reason: null } },
    });
    assert.deepEqual(items.map((item) => item.firstLine), ['one', 'two']);
  });
});
