import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { spexSessionResponseSchema } from '../../shared/wire/spex.ts';
import { A, B, PROJECT, sentEvent, sessionJson, startSpexRig, statusEvent, type SpexRig } from './spexHarness.ts';

// A spex session taken away whole (`GET /api/sessions/:id/export?format=`), from a home written
// by a real writer process across segment rollovers: NDJSON with each line's bytes as the segment
// holds them, JSON in the page's shape, and a Markdown transcript in spex's words. spex's private
// delivery data is in none of them.

const SETTLED_CANARY = 'CANARY-EXPORT-SETTLED-2b7d';
const RECEIPT_CANARY = 'CANARY-EXPORT-RECEIPT-c40f';
const PRIVATE_WORDS = [SETTLED_CANARY, RECEIPT_CANARY, 'dispatchReceipt', 'dispatch-settled'];
const PERSON_TEXT = 'Does the cart still POST /v1/orders?\r\nwith ``` inside';
const NOTE = 'Ready for review.\nTests: 41 passed.';
const BOUND = 250;

const where = (sessionId: string) => ({ project: PROJECT, sessionId });
const folderOf = (rig: SpexRig, sessionId: string) => join(rig.home, 'projects', PROJECT, 'sessions', sessionId);

let rig: SpexRig;
let tornSegment = '';

before(async () => {
  rig = await startSpexRig(async (writer) => {
    for (const id of [A, B]) await writer.send({ op: 'session', ...where(id), value: sessionJson(id) });
    const write = (sessionId: string, event: Record<string, unknown>) => writer.send({ op: 'event', ...where(sessionId), event, bound: BOUND });
    await write(A, sentEvent(PERSON_TEXT, null, { ts: '2026-11-30T10:00:01.000Z', replyVia: 'note' }));
    await write(A, { ts: '2026-11-30T10:00:02.000Z', kind: 'dispatch-settled', mid: 'm1', receipt: SETTLED_CANARY });
    await write(A, sentEvent('from B, with its receipt', B, { ts: '2026-11-30T10:00:03.000Z', dispatchReceipt: { digest: RECEIPT_CANARY } }));
    await write(B, sentEvent('A asks B', A, { ts: '2026-11-30T10:00:04.000Z' }));
    await write(B, sentEvent('B notes to itself', B, { ts: '2026-11-30T10:00:04.500Z' }));
    await write(A, statusEvent('awaiting', 'merge', NOTE, '2026-11-30T10:00:05.000Z'));
    await writer.send({ op: 'bytes', ...where(A), base64: Buffer.from('{"ts":"2026-11-30T10:00:06.000Z","kind":"sent","te\n').toString('base64'), bound: BOUND });
    await write(A, sentEvent('from the tracker', 'issues', { ts: '2026-11-30T10:00:07.000Z' }));
    // A last line cut short an hour ago: torn as soon as it is read.
    const cut = await writer.send({ op: 'bytes', ...where(A), base64: Buffer.from('{"ts":"2026-11-30T10:00:08.000Z","kind":"sent","text":"cut sh').toString('base64'), bound: BOUND });
    tornSegment = cut.segment!;
    await writer.send({ op: 'age', ...where(A), file: tornSegment, mtime: new Date(Date.now() - 3_600_000).toISOString() });
  });
});
after(() => rig?.close());

async function exportOf(sessionId: string, format: string): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  const response = await rig.app.inject({ method: 'GET', url: `/api/sessions/${sessionId}/export?format=${format}` });
  rig.served.push(response.body);
  return { status: response.statusCode, text: response.body, headers: response.headers };
}

/** The session's segments, in log order, each split into its lines (the last without its newline). */
function segmentLines(sessionId: string): { segment: string; lines: Buffer[] }[] {
  const folder = join(folderOf(rig, sessionId), 'timeline');
  return readdirSync(folder)
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(folder, name));
      const lines: Buffer[] = [];
      let from = 0;
      for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, from)) {
        lines.push(bytes.subarray(from, at));
        from = at + 1;
      }
      if (from < bytes.length) lines.push(bytes.subarray(from));
      return { segment: `timeline/${name}`, lines };
    });
}

describe('a spex session exported', () => {
  it('as Markdown, says a received line is one event seen from two sides where the server does, and not of a line a session sent to itself', async () => {
    const got = await exportOf(B, 'md');
    assert.equal(got.status, 200);
    const sections = got.text.split(/^### /m);
    const fromA = sections.find((section) => section.startsWith(`Received from session \`${A}\``));
    const fromItself = sections.find((section) => section.startsWith(`Received from session \`${B}\``));
    assert.ok(fromA !== undefined && fromItself !== undefined, `both received lines are sections: ${sections.map((section) => section.split('\n')[0]).join(' | ')}`);
    assert.match(fromA, /The same event is in that session's Sent column/);
    assert.doesNotMatch(fromItself, /The same event is in that session's Sent column/);
  });

  it("as NDJSON: each line with its evidence and place, its bytes exactly as in its segment, a private line nowhere and a receipt's line as its bytes without it, saying so", async () => {
    const got = await exportOf(A, 'ndjson');
    assert.equal(got.status, 200);
    assert.equal(got.headers['content-disposition'], `attachment; filename="spex-${A}.ndjson"`);
    const lines = got.text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
    assert.equal(lines[0]!['type'], 'session');
    assert.equal(lines[0]!['schema'], 'rec.spex-session-export/1');
    assert.equal(lines[0]!['session'].id, A);
    const items = lines.slice(1);
    assert.equal(lines[0]!['items'], items.length);

    const own = items.filter((item) => item['log'] === A);
    assert.deepEqual(
      own.map((item) => `${item['line']} ${item['evidence']} ${item['kind']}`),
      ['1 parsed sent', '2 parsed sent', '3 parsed status', '4 damaged null', '5 parsed sent', '6 torn null'],
      'every line of its log in order, numbered without the private line',
    );
    // Each line's bytes, against the segments as the writer wrote them, private lines left out.
    const onDisk = segmentLines(A).flatMap(({ segment, lines: segmentLines }) => segmentLines.map((bytes) => ({ segment, bytes })));
    const publicOnDisk = onDisk.filter(({ bytes }) => !bytes.toString('utf8').includes('"kind":"dispatch-settled"'));
    assert.ok(new Set(onDisk.map(({ segment }) => segment)).size >= 3, 'the log spans segments');
    assert.equal(publicOnDisk.length, own.length);
    own.forEach((item, index) => {
      const expected = publicOnDisk[index]!;
      assert.equal(item['segment'], expected.segment, `line ${item['line']}'s segment`);
      if (item['line'] === 2) {
        // Its bytes hold the receipt: they are exported without it, byte for byte the rest, and with their length then.
        const { dispatchReceipt, ...rest } = JSON.parse(expected.bytes.toString('utf8')) as Record<string, unknown>;
        assert.ok(dispatchReceipt !== undefined);
        assert.equal(item['lineText'], JSON.stringify(rest));
        assert.equal(item['bytes'], Buffer.byteLength(item['lineText']));
        assert.match(item['withheld'], /private delivery receipt was taken out/);
        assert.equal('fields' in item, false);
        return;
      }
      assert.equal(item['bytes'], expected.bytes.length);
      assert.ok(Buffer.from(item['lineText'], 'utf8').equals(expected.bytes), `line ${item['line']} byte for byte`);
    });
    const torn = own.at(-1)!;
    assert.equal(torn['segment'], tornSegment);
    assert.match(torn['why'], /torn/);

    // What A sent, from B's log: B's line, byte for byte, saying whose log holds it.
    const sent = items.filter((item) => item['log'] === B);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!['side'], 'sent');
    assert.equal(sent[0]!['key'], `sent-1-${B}`);
    assert.ok(Buffer.from(sent[0]!['lineText'], 'utf8').equals(segmentLines(B)[0]!.lines[0]!));
    assert.deepEqual(
      items.map((item) => item['key']),
      ((await rig.get(`/api/sessions/${A}?limit=5000`)).body.items as { key: string }[]).map((item) => item.key),
      "in the page's order",
    );
  });

  it("as JSON: the session page's shape with every item", async () => {
    const got = await exportOf(A, 'json');
    assert.equal(got.status, 200);
    const body = spexSessionResponseSchema.parse(JSON.parse(got.text));
    const page = spexSessionResponseSchema.parse((await rig.get(`/api/sessions/${A}?limit=5000`)).body);
    assert.equal(body.items.length, page.page.total);
    assert.deepEqual(body.page, { offset: 0, limit: page.page.total, total: page.page.total });
    assert.deepEqual(body.items, page.items);
    assert.deepEqual(body.session, page.session);
  });

  it("as Markdown: a person's message, a declaration with its word, a torn line and a sent one in spex's words, texts verbatim in fences they cannot close", async () => {
    const got = await exportOf(A, 'md');
    assert.equal(got.status, 200);
    assert.match(String(got.headers['content-type']), /^text\/markdown/);
    const md = got.text;
    assert.match(md, /^# spex session `aaaaaaaa-/);
    assert.ok(md.includes('### Received from a person · 2026-11-30T10:00:01.000Z'), md);
    assert.ok(md.includes('- Reply via `note`'));
    assert.ok(md.includes(`\`\`\`\`text\n${PERSON_TEXT}\n\`\`\`\``), 'the text verbatim, in a fence longer than its backticks');
    assert.ok(md.includes(`### Received from session \`${B}\` · 2026-11-30T10:00:03.000Z`));
    assert.ok(md.includes('### Declared review · 2026-11-30T10:00:05.000Z'));
    assert.ok(md.includes('- Status `awaiting`, proposal `merge`'));
    assert.ok(md.includes(`\`\`\`text\n${NOTE}\n\`\`\``), 'the note whole');
    // The damaged line is the file's fifth: the private line before it is neither shown nor numbered, and the head says what the numbers count.
    assert.ok(md.includes('### Line 4 is damaged: unknown evidence, not nothing'));
    assert.ok(md.includes("lines are numbered across the log's segments, among those shown: a line spex keeps private is neither shown nor counted"), md);
    assert.ok(md.includes('### Line 6 is torn: unknown evidence, not nothing'));
    assert.ok(md.includes('```text\n{"ts":"2026-11-30T10:00:08.000Z","kind":"sent","text":"cut sh\n```'), 'the torn line as written, in its place');
    assert.ok(md.includes('### Received from `issues` · 2026-11-30T10:00:07.000Z'));
    assert.ok(md.includes(`### Sent to session \`${B}\` · 2026-11-30T10:00:04.000Z`));
    assert.ok(md.includes("- From the receiver's log: line 1 of that session's log."));
    assert.ok(md.indexOf('Line 4 is damaged') < md.indexOf('Received from `issues`') && md.indexOf('Received from `issues`') < md.indexOf('Line 6 is torn'), 'degraded lines in their place');
  });

  it('a session the home does not hold is a 404; a format that is none of the three is a 400', async () => {
    assert.equal((await exportOf('no-such-session', 'md')).status, 404);
    assert.equal((await exportOf(A, 'pdf')).status, 400);
  });

  it("no export carries spex's private delivery data", () => {
    assert.ok(rig.served.length >= 4);
    for (const text of rig.served) for (const word of PRIVATE_WORDS) assert.ok(!text.includes(word), `${word} left the server in: ${text.slice(0, 200)}`);
  });
});
