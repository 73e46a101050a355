import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, closeSync, mkdtempSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { readAppended, type AppendMark } from './appendRead.ts';

const dir = mkdtempSync(join(tmpdir(), 'rec-append-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const rules = { root: dir };

function readAll(path: string, mark: AppendMark | null) {
  const read = readAppended(path, rules, mark?.offset ?? 0, mark, 1 << 20);
  assert.equal(read.type, 'bytes');
  if (read.type !== 'bytes') throw new Error('unreachable');
  return { text: read.bytes.toString(), mark: read.mark(read.size) };
}

describe('reading an append-only file from where the last read stopped', () => {
  it('reads only the bytes appended since the last read', () => {
    const path = join(dir, 'grows.ndjson');
    writeFileSync(path, '{"a":1}\n');
    const first = readAll(path, null);
    appendFileSync(path, '{"b":2}\n');
    const second = readAll(path, first.mark);
    assert.equal(first.text, '{"a":1}\n');
    assert.equal(second.text, '{"b":2}\n');
  });

  it('bytes read into a scratch buffer are the bytes, and give the mark, a read of their own gives; a read larger than it gets its own', () => {
    const path = join(dir, 'scratch.ndjson');
    writeFileSync(path, '{"a":1}\n{"b":2}\n');
    const scratch = Buffer.alloc(64);
    const own = readAppended(path, rules, 0, null, 1 << 20);
    const into = readAppended(path, rules, 0, null, 1 << 20, scratch);
    assert.ok(own.type === 'bytes' && into.type === 'bytes');
    assert.equal(into.bytes.buffer, scratch.buffer);
    assert.deepEqual(into.bytes, own.bytes);
    assert.deepEqual(into.mark(8), own.mark(8));
    appendFileSync(path, `${'x'.repeat(100)}\n`);
    const larger = readAppended(path, rules, 8, into.mark(8), 1 << 20, scratch);
    assert.ok(larger.type === 'bytes');
    assert.notEqual(larger.bytes.buffer, scratch.buffer);
    assert.equal(larger.bytes.toString(), `{"b":2}\n${'x'.repeat(100)}\n`);
  });

  it('reads a pending tail again from where it began', () => {
    const path = join(dir, 'tail.ndjson');
    writeFileSync(path, '{"a":1}\n{"b"');
    const read = readAppended(path, rules, 0, null, 1 << 20);
    assert.equal(read.type, 'bytes');
    if (read.type !== 'bytes') return;
    const mark = read.mark(8);
    appendFileSync(path, ':2}\n');
    const again = readAppended(path, rules, mark.offset, mark, 1 << 20);
    assert.equal(again.type === 'bytes' && again.bytes.toString(), '{"b":2}\n');
  });

  it('says a file that became shorter than what was read changed after reading', () => {
    const path = join(dir, 'shrinks.ndjson');
    writeFileSync(path, '{"a":1}\n{"b":2}\n');
    const { mark } = readAll(path, null);
    writeFileSync(path, '{"a":1}\n');
    const read = readAppended(path, rules, mark.offset, mark, 1 << 20);
    assert.equal(read.type, 'changed');
  });

  it('says bytes rewritten in place before the offset changed after reading, not new lines', () => {
    const path = join(dir, 'rewritten.ndjson');
    writeFileSync(path, '{"a":1}\n{"b":2}\n');
    const { mark } = readAll(path, null);
    writeFileSync(path, '{"a":9}\n{"b":2}\n{"c":3}\n');
    const read = readAppended(path, rules, mark.offset, mark, 1 << 20);
    assert.equal(read.type, 'changed');
  });

  // Written in place, as an editor or a script writing at an offset does: the file keeps its size.
  function writeAt(path: string, at: number, text: string): void {
    const fd = openSync(path, 'r+');
    try {
      writeSync(fd, text, at);
    } finally {
      closeSync(fd);
    }
  }
  const lines = (from: number, count: number) => Array.from({ length: count }, (_, i) => `{"n":${from + i},"text":"line ${from + i}"}\n`).join('');
  // A file's change time is the kernel's coarse clock: a write within its tick of the read would not move it.
  const nextTick = () => sleep(20);

  it('says bytes rewritten in place long before the offset changed after reading, when the write added nothing', async () => {
    const path = join(dir, 'in-place.ndjson');
    writeFileSync(path, lines(0, 100));
    const { mark } = readAll(path, null);
    await nextTick();
    writeAt(path, 10, 'HACKED');
    const read = readAppended(path, rules, mark.offset, mark, 1 << 20);
    assert.equal(read.type, 'changed');
  });

  it('checks the bytes appended since the first read too, once the file is written without growing', async () => {
    const path = join(dir, 'appended-then-in-place.ndjson');
    writeFileSync(path, lines(0, 10));
    const first = readAll(path, null);
    appendFileSync(path, lines(10, 100));
    const second = readAll(path, first.mark);
    await nextTick();
    writeAt(path, first.mark.offset + 20, 'HACKED');
    assert.equal(readAppended(path, rules, second.mark.offset, second.mark, 1 << 20).type, 'changed');
  });

  it('reads on a file whose change time moved while its bytes stayed as they were read (a chmod), and then what is appended', async () => {
    const path = join(dir, 'chmod.ndjson');
    writeFileSync(path, lines(0, 100));
    const first = readAll(path, null);
    await nextTick();
    chmodSync(path, 0o600);
    const same = readAll(path, first.mark);
    assert.equal(same.text, '');
    appendFileSync(path, lines(100, 1));
    assert.equal(readAll(path, same.mark).text, lines(100, 1));
  });

  it('says another file put in place under the same name changed after reading', () => {
    const path = join(dir, 'replaced.ndjson');
    writeFileSync(path, '{"a":1}\n');
    const { mark } = readAll(path, null);
    const other = join(dir, 'other.ndjson');
    writeFileSync(other, '{"a":1}\n{"b":2}\n');
    renameSync(other, path);
    assert.equal(readAppended(path, rules, mark.offset, mark, 1 << 20).type, 'changed');
  });

  it('reads at most the bytes asked for, so a huge append is taken in pieces', () => {
    const path = join(dir, 'large.ndjson');
    writeFileSync(path, 'x'.repeat(10_000));
    const read = readAppended(path, rules, 0, null, 4096);
    assert.equal(read.type === 'bytes' && read.bytes.length, 4096);
  });

  it('says a missing file is missing, never empty', () => {
    assert.equal(readAppended(join(dir, 'none.ndjson'), rules, 0, null, 1024).type, 'missing');
  });
});
