import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXAMPLE, HINTED_TEXT, ONE, RECEIPT_DIGEST, RECEIPT_PAYLOAD, RECEIPT_TRANSPORT, TWO, encode, viewRange } from './fixtures.test.ts';
import { findReplyHint } from './replyHint.ts';
import { createSegmentReading, readSegmentBytes } from './segment.ts';

const CANARIES = [RECEIPT_DIGEST, RECEIPT_PAYLOAD, RECEIPT_TRANSPORT, 'dispatchReceipt', 'dispatch-settled', 'transport bytes'];
const assertNoCanary = (value: unknown) => {
  const shown = JSON.stringify(value);
  for (const canary of CANARIES) assert.ok(!shown.includes(canary), `${canary} in ${shown.slice(0, 200)}`);
};

/** Reads a segment, then each item's text from its byte range, as a page does. */
function viewsOf(text: string) {
  const bytes = encode(text);
  const reading = createSegmentReading('timeline/000000000001.ndjson');
  readSegmentBytes(reading, bytes);
  return reading.items.map((item) => viewRange(bytes.subarray(item.start, item.end)));
}

describe("a line's text, read again for a page", () => {
  it("a sent line's text comes back whole, with where spex's hint begins", () => {
    const views = viewsOf(EXAMPLE[ONE]['timeline/000000000001.ndjson']);
    const hinted = views[3]!;
    assert.equal(hinted.view, 'fields');
    if (hinted.view !== 'fields') return;
    assert.equal(hinted.text, HINTED_TEXT);
    assert.equal(hinted.hintAt, 'can you take the lint fix?'.length);
    assert.equal(hinted.fields['from'], TWO);
    assert.equal(views[1]?.view === 'fields' && views[1].hintAt, null);
  });

  it("a status line's note comes back whole", () => {
    const views = viewsOf(EXAMPLE[ONE]['timeline/000000000002.ndjson']);
    assert.deepEqual(
      views.map((view) => view.view === 'fields' && view.note),
      [null, 'merged cleanly; tests green', 'Which port should the dev server use?', 'answered: 8080'],
    );
  });

  it('the event comes back without its dispatchReceipt, and nothing of it is anywhere', () => {
    const [first] = viewsOf(EXAMPLE[ONE]['timeline/000000000002.ndjson']);
    assert.equal(first?.view, 'fields');
    if (first?.view !== 'fields') return;
    assert.deepEqual(Object.keys(first.fields), ['ts', 'kind', 'mid', 'text', 'from']);
    assert.equal(first.text, 'Merge your branch into main…');
    assertNoCanary(first);
  });

  it('a range that now holds a private line is withheld: the bytes at a range are checked again', () => {
    const [, settled] = EXAMPLE[ONE]['timeline/000000000002.ndjson'].split('\n');
    const view = viewRange(encode(settled!));
    assert.deepEqual(view, { view: 'withheld', why: "spex's private delivery state: never shown" });
  });

  it('a damaged line is shown raw, unless it may hold private data', () => {
    assert.deepEqual(viewRange(encode('{"ts":"t","kind":"sent","text":"cut')), { view: 'raw', raw: '{"ts":"t","kind":"sent","text":"cut' });
    const cut = viewRange(encode(`{"ts":"t","kind":"sent","text":"x","from":null,"dispatchReceipt":{"requestDigest":"${RECEIPT_DIGEST}"`));
    assert.equal(cut.view, 'withheld');
    assertNoCanary(cut);
    const settledCut = viewRange(encode(`{"ts":"t","kind":"dispatch-settled","requestDigest":"${RECEIPT_DIGEST}`));
    assert.equal(settledCut.view, 'withheld');
    assertNoCanary(settledCut);
  });

  it('a line with a key written twice is shown as written, without the private field when it writes one', () => {
    assert.deepEqual(viewRange(encode('{"kind":"sent","from":"a","from":"b"}')), { view: 'raw', raw: '{"kind":"sent","from":"a","from":"b"}' });
    const twice = viewRange(encode(`{"kind":"sent","from":"a","from":"b","dispatch\\u0052eceipt":{"requestDigest":"${RECEIPT_DIGEST}"}}`));
    assert.deepEqual(twice, { view: 'raw', raw: '{"kind":"sent","from":"a","from":"b"}' });
    assertNoCanary(twice);
  });

  it('a private field spelled with escapes is removed all the same', () => {
    const view = viewRange(encode(`{"ts":"t","kind":"sent","mid":"m","text":"x","from":null,"dispatch\\u0052eceipt":{"requestDigest":"${RECEIPT_DIGEST}"}}`));
    assert.equal(view.view, 'fields');
    assertNoCanary(view);
  });

  it('numbers come back as the line writes them', () => {
    const view = viewRange(encode('{"kind":"handoff","big":12345678901234567890,"huge":1e400,"neg":-0,"frac":1.50,"n":7}'));
    assert.equal(view.view, 'fields');
    assert.equal(JSON.stringify(view.view === 'fields' && view.fields), '{"kind":"handoff","big":12345678901234567890,"huge":1e400,"neg":-0,"frac":1.50,"n":7}');
  });

  it('bytes that are not UTF-8 are withheld, and say why', () => {
    assert.deepEqual(viewRange(Uint8Array.of(0x7b, 0xff, 0x7d)), { view: 'withheld', why: 'not valid UTF-8' });
  });

  it('JSON that is not an object is shown raw', () => {
    assert.deepEqual(viewRange(encode('[1, 2]')), { view: 'raw', raw: '[1, 2]' });
  });
});

describe("spex's reply hint in a text", () => {
  const ID = TWO;

  it('is found where spex began it, so the text before it is what the sender typed', () => {
    const at = findReplyHint(HINTED_TEXT);
    assert.equal(HINTED_TEXT.slice(0, at ?? undefined), 'can you take the lint fix?');
  });

  it("is found in each form spex's client has written", () => {
    const forms = [
      `\n\n— from session "fix the lint" (${ID}). To reply: spex session send ${ID} "<your reply>"`,
      `\n\n— from session ${ID}. To reply: spex session send ${ID} "<your reply>"`,
      `\n\n— from launch (${ID}). To reply: spex session send ${ID} "<your reply>"`,
      `\n\n— from ${ID}. To reply: spex session send ${ID} "<your reply>"`,
      `\n\n— from session "x" (${ID}) on machine 0f0f0f0f-0000-4000-8000-000000000000. To reply: spex session send --ssh build-box ${ID} "<your reply>"`,
    ];
    for (const hint of forms) assert.equal(findReplyHint(`do the thing${hint}`), 'do the thing'.length, hint);
  });

  it('a label holding a full stop and parentheses does not hide the hint', () => {
    const text = `ok\n\n— from session "v1.2 (beta). ship" (${ID}). To reply: spex session send ${ID} "<your reply>"`;
    assert.equal(findReplyHint(text), 2);
  });

  it('the last hint is the one spex added, when the sender quoted another', () => {
    const quoted = `\n\n— from session ${ID}. To reply: spex session send ${ID} "<your reply>"`;
    const text = `forwarding:${quoted}\n\nthoughts?${quoted}`;
    assert.equal(findReplyHint(text), text.length - quoted.length);
  });

  it('is none when the text does not end with one', () => {
    assert.equal(findReplyHint('please rebase on main'), null);
    assert.equal(findReplyHint(`\n\n— from session ${ID}. To reply: spex session send ${ID} "<your reply>" and more`), null);
    assert.equal(findReplyHint(`— from session ${ID}. To reply: spex session send ${ID} "<your reply>"`), null, 'spex always writes a blank line first');
    assert.equal(findReplyHint(''), null);
  });

  it('a text of many MB is searched at its end only', () => {
    const text = `${'\n\n— from '.repeat(500_000)}tail`;
    assert.equal(findReplyHint(text), null);
    assert.equal(findReplyHint(`${'x'.repeat(5_000_000)}\n\n— from session ${ID}. To reply: spex session send ${ID} "<your reply>"`), 5_000_000);
  });
});
