import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EXAMPLE, ONE, THREE, WORKTREE, encode } from './fixtures.test.ts';
import { readCurrentStatus, readSessionJson } from './sessionJson.ts';
import { deriveStatusWord } from './statusWord.ts';

describe("session.json: the session's current state", () => {
  it("reads the fields spex writes, with '' as empty", () => {
    const reading = readSessionJson(encode(EXAMPLE[THREE]['session.json']));
    assert.equal(reading.state, 'known');
    if (reading.state !== 'known') return;
    const { others, ...meta } = reading.meta;
    assert.deepEqual(meta, {
      session_id: THREE,
      worktree_path: WORKTREE,
      branch: 'node/example-3333',
      title: 'example',
      name: null,
      parent: null,
      status: 'awaiting',
      proposal: 'merge',
      note: 'ready to land',
      createdAt: 1,
      harness: 'claude',
      stopped: false,
      archived: false,
    });
    assert.equal(others['governed'], true);
    assert.equal(others['launch_cmd'], 'claude');
  });

  it('keeps every field it does not know, as read', () => {
    const reading = readSessionJson(encode(JSON.stringify({ session_id: ONE, future: { nested: [1, 2] }, __proto__x: 'y' })));
    assert.equal(reading.state, 'known');
    if (reading.state === 'known') assert.deepEqual(reading.meta.others, { future: { nested: [1, 2] }, __proto__x: 'y' });
  });

  it('a field an older spex did not write is empty, not a reason to refuse the file', () => {
    const reading = readSessionJson(encode(JSON.stringify({ session_id: ONE, status: 'idle' })));
    assert.equal(reading.state, 'known');
    if (reading.state === 'known') {
      assert.equal(reading.meta.harness, null);
      assert.equal(reading.meta.archived, null);
    }
  });

  it('a session.json cut short is unknown, not "no session"', () => {
    const bytes = encode(EXAMPLE[ONE]['session.json']).subarray(0, 200);
    assert.deepEqual(readSessionJson(bytes), { state: 'unknown', evidence: 'damaged', why: 'session.json is not JSON in UTF-8' });
  });

  it('an empty session.json is unknown, and says it is empty', () => {
    assert.deepEqual(readSessionJson(new Uint8Array()), { state: 'unknown', evidence: 'damaged', why: 'session.json is empty' });
  });

  it('bytes that are not UTF-8 make session.json unknown', () => {
    assert.equal(readSessionJson(Uint8Array.of(0x7b, 0xff, 0x7d)).state, 'unknown');
  });

  it('JSON that is not an object is invalid: unknown, with why', () => {
    assert.deepEqual(readSessionJson(encode('[1,2]')), { state: 'unknown', evidence: 'invalid', why: 'session.json is not a JSON object' });
    assert.deepEqual(readSessionJson(encode('null')), { state: 'unknown', evidence: 'invalid', why: 'session.json is not a JSON object' });
  });

  it('a known field of the wrong type makes session.json invalid, naming the field', () => {
    const reading = readSessionJson(encode(JSON.stringify({ session_id: ONE, stopped: 'yes' })));
    assert.equal(reading.state, 'unknown');
    if (reading.state === 'unknown') {
      assert.equal(reading.evidence, 'invalid');
      assert.match(reading.why, /^session\.json: stopped: /);
    }
  });

  it('a why never quotes the file: JSON.parse messages, which do, are not passed on', () => {
    const reading = readSessionJson(encode('{"note": "CANARY-SECRET" oops}'));
    assert.ok(!JSON.stringify(reading).includes('CANARY'));
  });
});

describe('the current status, labelled as current', () => {
  it('says what session.json says now, with the word spex shows', () => {
    const current = readCurrentStatus(readSessionJson(encode(EXAMPLE[THREE]['session.json'])));
    assert.deepEqual(current, { state: 'known', status: 'awaiting', word: 'review', proposal: 'merge', hasNote: true, stopped: false, archived: false });
  });

  it('is unknown, with why, when session.json is', () => {
    assert.deepEqual(readCurrentStatus({ state: 'unknown', evidence: 'damaged', why: 'session.json is empty' }), { state: 'unknown', why: 'session.json is empty' });
  });

  it("an empty status ('') has no word", () => {
    const current = readCurrentStatus(readSessionJson(encode(JSON.stringify({ status: '', proposal: '' }))));
    assert.deepEqual(current, { state: 'known', status: null, word: null, proposal: null, hasNote: false, stopped: null, archived: null });
  });
});

describe('the word spex shows for a status', () => {
  it('active is working; awaiting is named by its proposal; anything else as it is', () => {
    assert.equal(deriveStatusWord('active', null), 'working');
    assert.equal(deriveStatusWord('awaiting', 'merge'), 'review');
    assert.equal(deriveStatusWord('awaiting', 'close'), 'close-pending');
    assert.equal(deriveStatusWord('awaiting', null), 'done');
    assert.equal(deriveStatusWord('awaiting', 'rebase'), 'done');
    for (const status of ['idle', 'parked', 'error', 'asking', 'queued', 'hibernating']) assert.equal(deriveStatusWord(status, 'merge'), status);
  });
});
