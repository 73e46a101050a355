import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MessageFacts } from './search.ts';
import { createTextMatcher, snippetAround } from '../textMatch.ts';
import { isFolderNotSearched, passesFilters, whyNotSearched } from './search.ts';
import { fileOf, nameAt, sentEntry, strayOf } from '../test/recordFixtures.ts';

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

describe('text matching', () => {
  it('a case-insensitive substring matches where lower-casing changes the length of the text', () => {
    const loose = createTextMatcher('post', { regex: false, matchCase: false });
    assert.ok(typeof loose === 'function');
    const text = 'İstanbul POST';
    const found = loose(text);
    assert.deepEqual(found, { start: 9, end: 13 });
    assert.equal(text.slice(found!.start, found!.end), 'POST');
  });

  it('a case-insensitive match that takes in a character whose lower case is longer covers that whole character', () => {
    const loose = createTextMatcher('i̇stanbul', { regex: false, matchCase: false });
    assert.ok(typeof loose === 'function');
    assert.deepEqual(loose('to İSTANBUL'), { start: 3, end: 11 });
  });

  it('a pathological regular expression is matched in linear time', () => {
    const matcher = createTextMatcher('(a+)+$', { regex: true, matchCase: false });
    assert.ok(typeof matcher === 'function');
    assert.equal(matcher('a'.repeat(5_000) + '!'), null);
    assert.deepEqual(matcher('b' + 'a'.repeat(5_000)), { start: 1, end: 5_001 });
  });

  it('a backreference or a lookaround is refused with a message that says why', () => {
    for (const pattern of ['(a)\\1', '(?<x>a)\\k<x>', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b']) {
      const matcher = createTextMatcher(pattern, { regex: true, matchCase: false });
      assert.ok('error' in matcher, pattern);
      assert.match(matcher.error, /not supported.*linear time/, pattern);
    }
  });

  it('a regular expression match is given in UTF-16 offsets into the text, as a snippet needs', () => {
    const matcher = createTextMatcher('ne+dle', { regex: true, matchCase: true });
    assert.ok(typeof matcher === 'function');
    assert.deepEqual(matcher('😀😀 needle'), { start: 5, end: 11 });
    const any = createTextMatcher('x.y', { regex: true, matchCase: true });
    assert.ok(typeof any === 'function');
    assert.deepEqual(any('x😀y'), { start: 0, end: 4 });
  });

  it('a regular expression reads \\u escapes as JavaScript writes them, and matches case-insensitively beyond ASCII', () => {
    const cases: [string, string, { start: number; end: number }][] = [
      ['caf\\u00e9', 'un café', { start: 3, end: 7 }],
      ['\\u{1F600}', 'ok 😀', { start: 3, end: 5 }],
      ['\\ud83d\\ude00', 'ok 😀', { start: 3, end: 5 }],
      ['\\\\u00e9', 'a \\u00e9', { start: 2, end: 8 }],
      ['ÉTÉ', 'en été', { start: 3, end: 6 }],
    ];
    for (const [pattern, text, expected] of cases) {
      const matcher = createTextMatcher(pattern, { regex: true, matchCase: false });
      assert.ok(typeof matcher === 'function', pattern);
      assert.deepEqual(matcher(text), expected, pattern);
    }
  });

  it("a file a search cannot read is counted where its session's directories and its name's time let the filters select it, whatever they ask of its side", () => {
    const damaged = fileOf(nameAt(5, 3), '{"kind":"message","te');
    assert.equal(damaged.evidence, 'damaged');
    const moved = { cwd: '/a', cwds: ['/a', '/b'] };
    assert.equal(whyNotSearched(damaged, moved, { side: 'received', peer: 'anyone' }, true), 'damaged');
    // A session that worked in two directories may have written it in either.
    assert.equal(whyNotSearched(damaged, moved, { project: '/b' }, true), 'damaged');
    assert.equal(whyNotSearched(damaged, moved, { project: '/c' }, true), null);
    // One whose entries name no directory may be anyone's.
    assert.equal(whyNotSearched(damaged, { cwd: null, cwds: [] }, { project: '/c' }, true), 'damaged');
    assert.equal(whyNotSearched(damaged, moved, { to: '2026-11-20T09:00:04Z' }, true), null);
    assert.equal(whyNotSearched(damaged, moved, { from: '2026-11-20T09:00:04Z' }, true), 'damaged');
  });

  it('a file read, pending, a stray, or read once and known by its facts to be kept out, is not counted as not searched', () => {
    const place = { cwd: '/a', cwds: ['/a'] };
    assert.equal(whyNotSearched(fileOf(nameAt(1, 1), sentEntry(1, 'hello')), place, {}, true), null);
    assert.equal(whyNotSearched(fileOf(nameAt(1, 1), '{"kind":"mess', { changedAt: Date.now() }), place, {}, true), null, 'pending');
    assert.equal(whyNotSearched(strayOf('notes.txt'), place, {}, true), null);
    const known = { ...fileOf(nameAt(1, 1), sentEntry(1, 'hello')), evidence: 'unreadable' as const };
    assert.equal(whyNotSearched(known, place, {}, true), 'unreadable');
    assert.equal(whyNotSearched(known, place, { side: 'received' }, true), null, 'its facts say sent');
    assert.equal(whyNotSearched({ ...known, facts: { ...(known.facts as MessageFacts), withheld: true } }, place, {}, true), null, 'a withheld text never matches a text');
    assert.equal(whyNotSearched({ ...known, evidence: 'removed' }, place, {}, true), null, 'removed: its session says so');
  });

  it("a session folder not read is counted by its directories as last read", () => {
    assert.equal(isFolderNotSearched(true, { cwd: '/a', cwds: ['/a'] }, { project: '/a' }), true);
    assert.equal(isFolderNotSearched(true, { cwd: '/a', cwds: ['/a'] }, { project: '/b' }), false);
    assert.equal(isFolderNotSearched(false, { cwd: '/a', cwds: ['/a'] }, {}), false);
  });
});
