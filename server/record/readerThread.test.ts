import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { nameAt, sentEntry } from '../../shared/test/recordFixtures.ts';
import { fingerprintEntry } from './entryFingerprint.ts';
import { readAside } from './readerThread.ts';

// What a reader thread sends back for a large entry: the values as the file writes them, clipped
// for a page where it reads them, and whole (with the file's own text) for the file endpoint.

const dir = mkdtempSync(join(tmpdir(), 'rec-reader-thread-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const name = nameAt(1, 2);
const path = join(dir, name);
const text = 'x'.repeat(200_000);
writeFileSync(path, JSON.stringify({ ...sentEntry(1, text), sessionId: 's' }).replace('"kind":"message"', '"kind":"message","big":12345678901234567890,"tiny":1e400'));

describe('a reader thread, reading a large entry', () => {
  it('for a page: the text is clipped there, and numbers stay as written', () => {
    const reply = readAside({ type: 'read', path, name, textLimit: 1_000, parsed: null });
    assert.equal(reply.reading?.outcome, 'entry');
    const value = (reply.reading as { value: Record<string, unknown> }).value;
    assert.equal(value['text'], 'x'.repeat(1_000));
    assert.deepEqual(reply.clipped, { textClipped: { bytes: 200_000 } });
    assert.equal(JSON.stringify(value['big']), '12345678901234567890');
    assert.equal(JSON.stringify(value['tiny']), '1e400');
    assert.equal(reply.sourceJson, null);
  });

  it('for a page, with the bytes the index read as an entry: the same reply, from the head of its text', () => {
    const parsed = fingerprintEntry(readFileSync(path));
    assert.deepEqual(readAside({ type: 'read', path, name, textLimit: 1_000, parsed }), readAside({ type: 'read', path, name, textLimit: 1_000, parsed: null }));
  });

  it('for a page, with bytes changed since the index read them: read whole, so damage past the head is seen', () => {
    const changedPath = join(dir, nameAt(1, 3));
    const bytes = Buffer.from(JSON.stringify({ ...sentEntry(1, 'y'.repeat(200_000)), sessionId: 's' }));
    writeFileSync(changedPath, bytes);
    const parsed = fingerprintEntry(bytes);
    // The same size, one byte of the text no longer UTF-8, far past what a page shows of it.
    bytes[bytes.indexOf('yyy') + 150_000] = 0xff;
    writeFileSync(changedPath, bytes);
    const reply = readAside({ type: 'read', path: changedPath, name: nameAt(1, 3), textLimit: 1_000, parsed });
    assert.deepEqual(reply.reading, { outcome: 'unparsed', why: 'not valid UTF-8' });
    assert.equal(reply.seen.type, 'unparsed');
  });

  it('whole: the entry with numbers as written, and the file text as its JSON, both as bytes', () => {
    const reply = readAside({ type: 'read', path, name, textLimit: null, parsed: null });
    const value = JSON.parse(new TextDecoder().decode(reply.valueJson!)) as Record<string, unknown>;
    assert.equal(value['text'], text);
    assert.match(new TextDecoder().decode(reply.valueJson!), /"big":12345678901234567890,"tiny":1e400/);
    assert.equal(JSON.parse(new TextDecoder().decode(reply.sourceJson!)), readFileSync(path, 'utf8'));
  });
});
