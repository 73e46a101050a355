import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SESSION, bytesOf, receivedEntry, sentEntry, startEntry } from '../test/recordFixtures.ts';
import { readFieldsAsWritten } from '../jsonText.ts';
import { readEntry } from './entry.ts';

function factsOf(value: unknown) {
  const reading = readEntry(bytesOf(value));
  assert.equal(reading.outcome, 'entry', reading.outcome !== 'entry' ? reading.why : '');
  return reading.outcome === 'entry' ? reading : assert.fail();
}

describe('reading an entry', () => {
  it('a start entry gives its host, version and inbound setting', () => {
    const { facts } = factsOf(startEntry(0));
    assert.deepEqual(facts, { kind: 'start', sessionId: SESSION, at: '2026-11-20T09:00:00.000Z', cwd: '/home/dev/projects/web-app', host: 'claude-code', version: '2.1.314', inbound: 'accept' });
  });

  it('an inbound setting the reader does not know is kept as the host said it', () => {
    assert.equal((factsOf(startEntry(0, { inbound: 'ask-first' })).facts as { inbound: string }).inbound, 'ask-first');
  });

  it('a sent entry holds the host result, and a refusal keeps its reason', () => {
    const { facts, value } = factsOf(sentEntry(1, 'hi', { isQueued: false, reason: 'recipient refuses inbound messages' }));
    assert.equal(facts.kind === 'message' && facts.isQueued, false);
    assert.equal(value['reason'], 'recipient refuses inbound messages');
  });

  it('a received entry holds its outcome and keeps the envelope as it arrived', () => {
    const envelope = { origin: { kind: 'peer', from: 'uds:/tmp/x.sock' }, extra: [1, { deep: null }] };
    const { facts, value } = factsOf(receivedEntry(2, 'ok', { outcome: 'rejected', envelope }));
    assert.equal(facts.kind === 'message' && facts.outcome, 'rejected');
    assert.deepEqual(value['envelope'], envelope);
  });

  for (const outcome of ['queued', 'consumed', 'rejected', 'unknown']) {
    it(`the receive outcome "${outcome}" is read as such`, () => {
      const { facts } = factsOf(receivedEntry(2, 'ok', { outcome }));
      assert.equal(facts.kind === 'message' && facts.outcome, outcome);
    });
  }

  it('the peer is kept exactly as the host gave it, and a session id only where resolved', () => {
    const named = factsOf(sentEntry(1, 'x', { peer: { as: ' api-service ' } })).facts;
    assert.equal(named.kind === 'message' && named.peerAs, ' api-service ');
    assert.equal(named.kind === 'message' && named.peerSessionId, null);
    const resolved = factsOf(sentEntry(1, 'x', { peer: { as: 'api-service', sessionId: 'c3c3' } })).facts;
    assert.equal(resolved.kind === 'message' && resolved.peerSessionId, 'c3c3');
  });

  it('an empty or missing peer address means the peer is unknown', () => {
    for (const peer of [{ as: '' }, {}, undefined]) {
      const { facts } = factsOf(sentEntry(1, 'x', { peer }));
      assert.equal(facts.kind === 'message' && facts.peerAs, null);
    }
  });

  it('text is kept verbatim: CRLF, tabs, zero-width and direction-changing characters, emoji and a lone surrogate', () => {
    const text = 'line one\r\n\tline two\u200b \u202eevil\u202c 🧪 \ud800 end ';
    const { value } = factsOf(sentEntry(1, text));
    assert.equal(value['text'], text);
  });

  it('a metadata-only entry is read as a withheld text with its length and hash', () => {
    const hash = 'sha256:' + 'ab'.repeat(32);
    const { facts, value } = factsOf(sentEntry(1, 'x', { text: undefined, textLength: 42, textHash: hash }));
    assert.equal(facts.kind === 'message' && facts.withheld, true);
    assert.equal(value['textHash'], hash);
  });

  it('a withheld text with a malformed hash is not a valid entry', () => {
    const reading = readEntry(bytesOf(sentEntry(1, 'x', { text: undefined, textLength: 4, textHash: 'sha256:ABC' })));
    assert.equal(reading.outcome, 'invalid');
  });

  it('unknown fields are kept', () => {
    const { value } = factsOf(sentEntry(1, 'x', { futureField: { a: 1 } }));
    assert.deepEqual(value['futureField'], { a: 1 });
  });

  it('an entry of an unknown kind is kept raw as an entry of unknown kind, never dropped', () => {
    const { facts, value } = factsOf({ kind: 'handoff', sessionId: SESSION, at: '2026-11-20T09:00:00.000Z', cwd: '/x', note: 'n' });
    assert.deepEqual(facts, { kind: 'unknown', kindName: 'handoff', sessionId: SESSION, at: '2026-11-20T09:00:00.000Z', cwd: '/x' });
    assert.equal(value['note'], 'n');
  });

  it('a chain entry names its parent, part and brief', () => {
    const { facts } = factsOf({ kind: 'chain', sessionId: SESSION, at: '2026-11-20T09:00:00.000Z', parent: 'p1', part: 2, brief: 'review', cwd: '/x' });
    assert.deepEqual(facts, { kind: 'chain', sessionId: SESSION, at: '2026-11-20T09:00:00.000Z', cwd: '/x', parent: 'p1', part: 2, brief: 'review' });
  });

  it('a half-written file does not parse yet, and says so', () => {
    const whole = JSON.stringify(sentEntry(1, 'hello'));
    for (let cut = 0; cut < whole.length; cut++) {
      const reading = readEntry(new TextEncoder().encode(whole.slice(0, cut)));
      assert.equal(reading.outcome, 'unparsed', `cut at ${cut}`);
    }
  });

  it('a UTF-8 byte-order mark before the object is tolerated and is not part of any text', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...bytesOf(sentEntry(1, 'after a BOM'))]);
    const reading = readEntry(bytes);
    assert.equal(reading.outcome === 'entry' && reading.value['text'], 'after a BOM');
  });

  it('bytes that are not UTF-8 do not parse', () => {
    assert.deepEqual(readEntry(new Uint8Array([0x7b, 0xff, 0x7d])), { outcome: 'unparsed', why: 'not valid UTF-8' });
  });

  it('a multi-byte character cut in half does not parse', () => {
    const bytes = bytesOf(sentEntry(1, 'é'));
    const at = bytes.indexOf(0xc3);
    assert.equal(readEntry(bytes.subarray(0, at + 1)).outcome, 'unparsed');
  });

  for (const [what, value] of [
    ['an array', [1, 2]],
    ['a string', '"start"'],
    ['an object without kind', { sessionId: SESSION }],
    ['a message without a side', { ...sentEntry(1, 'x'), side: undefined }],
    ['a message with an unknown side', { ...sentEntry(1, 'x'), side: 'forwarded' }],
    ['a sent entry without isQueued', { ...sentEntry(1, 'x'), isQueued: undefined }],
    ['a received entry without an outcome', { ...receivedEntry(1, 'x'), outcome: undefined }],
    ['a received entry with an outcome not in the spec', { ...receivedEntry(1, 'x'), outcome: 'delivered' }],
    ['a message with neither text nor length and hash', { ...sentEntry(1, 'x'), text: undefined }],
    ['a time without milliseconds', { ...sentEntry(1, 'x'), at: '2026-11-20T09:00:01Z' }],
    ['a time with an offset instead of UTC', { ...sentEntry(1, 'x'), at: '2026-11-20T09:00:01.000+01:00' }],
    ['a number where text belongs', { ...sentEntry(1, 'x'), text: 42 }],
  ] as const) {
    it(`JSON that is ${what} is an invalid entry, with a reason`, () => {
      const reading = readEntry(bytesOf(value));
      assert.equal(reading.outcome, 'invalid');
      assert.ok(reading.outcome === 'invalid' && reading.why.length > 0);
    });
  }
});

describe('keys and numbers as written', () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const start = JSON.stringify(startEntry(0));

  it('a message whose last "kind" is start is not a start: a duplicated key makes the entry invalid, naming the key', () => {
    const reading = readEntry(encode(`{"kind":"message",${start.slice(1)}`));
    assert.equal(reading.outcome, 'invalid');
    assert.match(reading.outcome === 'invalid' ? reading.why : '', /^duplicate key "kind"/);
    assert.equal(reading.outcome === 'invalid' && reading.value, undefined, 'neither value is shown as the entry');
  });

  it('a key duplicated at any depth is flagged with its place', () => {
    const text = JSON.stringify(receivedEntry(2, 'x')).replace('"name":"api-service"', '"name":"api-service","name":"other"');
    const reading = readEntry(encode(text));
    assert.equal(reading.outcome === 'invalid' && reading.why, 'duplicate key "name" in envelope.origin: the entry says two things, and the reader picks neither');
    const inArray = readEntry(encode(JSON.stringify(sentEntry(1, 'x', { list: [{ a: 1 }, 'b'] })).replace('{"a":1}', '{"a":1,"a":2}')));
    assert.match(inArray.outcome === 'invalid' ? inArray.why : '', /^duplicate key "a" in list\.0:/);
  });

  it('a key written with an escape is the same key', () => {
    const reading = readEntry(encode(`{"k\\u0069nd":"message",${start.slice(1)}`));
    assert.match(reading.outcome === 'invalid' ? reading.why : '', /^duplicate key "kind"/);
  });

  it('colons, braces and quotes inside strings, escaped or not, are not taken for keys', () => {
    const text = 'a: "b" {c: d} \\": e \\\\" "f":';
    const { value } = factsOf(sentEntry(1, text, { 'odd: "key"': { 'x:y': '\\' } }));
    assert.equal(value['text'], text);
  });

  it('a __proto__ field is kept as the entry\'s own field; written twice, it is flagged', () => {
    const once = readEntry(encode(`${start.slice(0, -1)},"__proto__":{"polluted":true}}`));
    assert.equal(once.outcome, 'entry');
    assert.ok(once.outcome === 'entry' && Object.hasOwn(once.value, '__proto__'));
    assert.deepEqual(once.outcome === 'entry' && Object.keys(once.value).at(-1), '__proto__');
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    const twice = readEntry(encode(`${start.slice(0, -1)},"__proto__":1,"__proto__":2}`));
    assert.match(twice.outcome === 'invalid' ? twice.why : '', /^duplicate key "__proto__"/);
  });

  it('the reading keeps the file\'s text exactly, a byte-order mark included', () => {
    const text = `\ufeff${JSON.stringify(sentEntry(1, 'x'))}\n`;
    const reading = readEntry(encode(text));
    assert.equal(reading.outcome === 'entry' && reading.source, text);
  });

  it('numbers are read as written: 1e400, 12345678901234567890, -0 and 1.50 are not altered', () => {
    const text = `${JSON.stringify(sentEntry(1, 'x')).slice(0, -1)},"huge":1e400,"big":12345678901234567890,"zero":-0,"float":1.50,"plain":[7,0.5],"__proto__":{"n":1E2}}`;
    const reading = readEntry(encode(text));
    assert.equal(reading.outcome, 'entry');
    const fields = readFieldsAsWritten(reading.outcome === 'entry' ? reading.source : '');
    assert.equal(JSON.stringify(fields), text);
    assert.ok(Object.hasOwn(fields as object, '__proto__'));
  });

  it('a chain part keeps its text where JSON would write the number otherwise', () => {
    const chain = (part: string) => encode(`{"kind":"chain","sessionId":"${SESSION}","at":"2026-11-20T09:00:00.000Z","parent":"p1","part":${part},"brief":"b","cwd":"/x"}`);
    const partOf = (part: string) => {
      const reading = readEntry(chain(part));
      return reading.outcome === 'entry' && reading.facts.kind === 'chain' ? reading.facts.part : reading;
    };
    assert.equal(partOf('2'), 2);
    assert.equal(partOf('"2b"'), '2b');
    assert.equal(partOf('12345678901234567890'), '12345678901234567890');
    assert.equal(partOf('1e400'), '1e400');
    assert.equal(partOf('-0'), '-0');
  });
});
