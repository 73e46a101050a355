import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FOCUS_STALE_MS, resolveFocus, resolvePresence } from './declared.ts';
import { readFocus, readPresence } from './storeFiles.ts';
import { EXAMPLE_STORE } from './testing/exampleStore.ts';
import { bytesOf } from './testing/sacWriter.ts';

const focus = readFocus({ state: 'read', bytes: bytesOf(EXAMPLE_STORE['focus.json']!) });
const presence = readPresence({ state: 'read', bytes: bytesOf(EXAMPLE_STORE['presence.json']!) });
const declaredAt = Date.parse('2026-11-30T17:18:53.402+00:00');

describe('focus', () => {
  it('a declared focus is shown with its files, phase and age', () => {
    assert.deepEqual(resolveFocus('web-app#3f9c1a20', focus, declaredAt + 60_000), {
      state: 'declared',
      text: 'reworking the checkout form',
      files: ['src/checkout/', 'src/lib/cart.ts'],
      phase: 'apply',
      ts: '2026-11-30T17:18:53.402+00:00',
      ageMs: 60_000,
      freshness: 'fresh',
    });
  });

  it('a focus older than four hours is still shown, marked stale', () => {
    const stale = resolveFocus('web-app#3f9c1a20', focus, declaredAt + FOCUS_STALE_MS + 1);
    assert.equal(stale.state === 'declared' && stale.freshness, 'stale');
    const fourHours = resolveFocus('web-app#3f9c1a20', focus, declaredAt + FOCUS_STALE_MS);
    assert.equal(fourHours.state === 'declared' && fourHours.freshness, 'fresh');
    const undated = resolveFocus('a#1', readFocus({ state: 'read', bytes: bytesOf('{"a#1": {"text": "t", "files": [], "ts": "soon"}}') }), declaredAt);
    assert.equal(undated.state === 'declared' && undated.freshness, 'unknown');
  });

  it('a seat that declared nothing has no focus; a focus.json that does not parse leaves it unknown', () => {
    assert.deepEqual(resolveFocus('api-service#c4e10000', focus, declaredAt), { state: 'none' });
    assert.equal(resolveFocus('web-app#3f9c1a20', readFocus({ state: 'read', bytes: bytesOf('{"web-app#3f9c1a20": {') }), declaredAt).state, 'unknown');
  });

  it('a focus record not as sac writes it is unknown, not absent', () => {
    const odd = readFocus({ state: 'read', bytes: bytesOf('{"a#1": {"text": 5, "ts": "2026-11-30T17:18:53.402+00:00"}}') });
    assert.equal(resolveFocus('a#1', odd, declaredAt).state, 'unknown');
  });
});

describe('quiet presence', () => {
  const since = Date.parse('2026-11-30T17:18:54.039+00:00');
  const until = Date.parse('2026-11-30T19:18:54.038+00:00');

  it('a seat declared quiet is quiet until its time, then the declaration has expired', () => {
    assert.deepEqual(resolvePresence('web-app#7b02e5d1', presence, since + 1000), { state: 'quiet', since: '2026-11-30T17:18:54.039+00:00', until: '2026-11-30T19:18:54.038+00:00' });
    assert.deepEqual(resolvePresence('web-app#7b02e5d1', presence, until), { state: 'expired', until: '2026-11-30T19:18:54.038+00:00' });
  });

  it('a quiet with no end stays quiet; a seat that declared nothing is not quiet', () => {
    const open = readPresence({ state: 'read', bytes: bytesOf('{"a#1": {"quiet": true, "since": "2026-11-30T17:18:54.039+00:00"}}') });
    assert.equal(resolvePresence('a#1', open, until * 2).state, 'quiet');
    assert.deepEqual(resolvePresence('web-app#3f9c1a20', presence, since), { state: 'not-quiet' });
  });

  it('a presence.json that does not parse leaves quiet unknown', () => {
    assert.equal(resolvePresence('web-app#7b02e5d1', readPresence({ state: 'read', bytes: bytesOf('{"web') }), since).state, 'unknown');
  });
});
