import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageFacts } from './search.ts';
import { createTextMatcher, passesFilters, snippetAround } from './search.ts';

const sent: MessageFacts = { kind: 'message', sessionId: 's', at: '2026-11-20T09:00:01.000Z', cwd: '/a', side: 'sent', peerAs: 'uds:/tmp/cc-socks/4242.sock', peerSessionId: null, isQueued: false, outcome: null, withheld: false };

describe('search', () => {
  it('filters select by side, refusal, peer as given, project and time', () => {
    assert.equal(passesFilters(sent, '/a', { side: 'sent', refused: true, peer: '4242', project: '/a', from: '2026-11-20T09:00:00.000Z', to: '2026-11-20T09:00:02.000Z' }), true);
    assert.equal(passesFilters(sent, '/a', { side: 'received' }), false);
    assert.equal(passesFilters({ ...sent, isQueued: true }, '/a', { refused: true }), false);
    assert.equal(passesFilters(sent, '/a', { peer: 'api-service' }), false);
    assert.equal(passesFilters(sent, '/a', { project: '/b' }), false);
    assert.equal(passesFilters(sent, '/a', { from: '2026-11-20T09:00:02.000Z' }), false);
  });

  it('a substring matches case-insensitively unless asked', () => {
    const loose = createTextMatcher('POST', { regex: false, matchCase: false });
    const exact = createTextMatcher('POST', { regex: false, matchCase: true });
    assert.ok(typeof loose === 'function' && typeof exact === 'function');
    assert.deepEqual(loose('does it post?'), { start: 8, end: 12 });
    assert.equal(exact('does it post?'), null);
  });

  it('a regular expression that does not compile is an error, not a crash', () => {
    const matcher = createTextMatcher('(', { regex: true, matchCase: false });
    assert.ok('error' in matcher);
  });

  it('a snippet is the text itself around the match, cut only between characters', () => {
    const text = '😀'.repeat(100) + 'needle' + '😀'.repeat(100);
    const matcher = createTextMatcher('needle', { regex: false, matchCase: true });
    assert.ok(typeof matcher === 'function');
    const { snippet, match } = snippetAround(text, matcher(text));
    assert.ok(text.includes(snippet));
    assert.equal(snippet.slice(match!.start, match!.end), 'needle');
    assert.equal(snippet.isWellFormed(), true);
  });
});
