import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import type { ExportFormat } from '../../shared/wire/common.ts';
import { makeJsonText } from '../watch/jsonText.ts';
import type { ExportItem, ExportParts, ExportRecord, ExportText } from './exportParts.ts';
import { describeExportActivity, exportBytes, exportFileName } from './pipeline.ts';

describe('an export\'s file name', () => {
  it('keeps letters, digits, dots, underscores and dashes only, and never begins with a dot', () => {
    assert.equal(exportFileName(['record', 'a1a1-0000'], 'md'), 'record-a1a1-0000.md');
    assert.equal(exportFileName(['record', '..\\evil"; name\r\n.txt'], 'json'), 'record-evil_name_.txt.json');
    assert.equal(exportFileName(['', '日本'], 'ndjson'), 'export.ndjson');
  });
});

// The one pipeline frames what a kind supplies: a kind gives its heads and its items, each in the
// form of the format asked for, and nothing of the framing.

type Item = { list: string; n: number; record: ExportRecord };

function partsOf(items: readonly Item[], read: string[] = []): ExportParts {
  async function* each<F extends ExportFormat>(form: (item: Item) => ExportItem<F>): AsyncGenerator<ExportItem<F>> {
    for (const item of items) {
      read.push(`${item.list}:${item.n}`);
      yield form(item);
    }
  }
  return {
    name: ['kind', 'one'],
    ndjsonHead: { type: 'conversation', items: items.length },
    jsonHead: { schema: 'test/1', others: true },
    jsonTail: () => ({ total: items.length }),
    markdownHead: (exportedAt) => `# One\n\n- Exported at ${exportedAt}\n\n`,
    lists: [
      { name: 'sent', markdownTitle: '## Sent\n\n', markdownEmpty: 'Nothing.\n\n' },
      { name: 'received', markdownTitle: '## Received\n\n', markdownEmpty: 'Nothing.\n\n' },
    ],
    items: {
      ndjson: () => each((item) => ({ list: item.list, record: item.record })),
      json: () => each((item) => ({ list: item.list, value: { n: item.n } })),
      md: () => each((item) => ({ list: item.list, markdown: `### ${item.n}\n\n` })),
    },
  };
}

async function made(parts: ExportParts, format: ExportFormat, signal = new AbortController().signal): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of exportBytes(parts, format, { exportedAt: '2026-12-01T00:00:00.000Z', itemSchema: z.object({ n: z.number() }), signal })) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const plain = (list: string, n: number, text?: ExportRecord['text']): Item => ({ list, n, record: { fields: { n }, ...(text !== undefined ? { text } : {}) } });

describe('the export pipeline', () => {
  it('frames JSON as one document: the head, each list as an array in its order (one with no item as []), then the tail', async () => {
    const json = await made(partsOf([plain('received', 1), plain('received', 2)]), 'json');
    assert.deepEqual(JSON.parse(json), { schema: 'test/1', others: true, sent: [], received: [{ n: 1 }, { n: 2 }], total: 2 });
    assert.deepEqual(Object.keys(JSON.parse(json)), ['schema', 'others', 'sent', 'received', 'total']);
    assert.deepEqual(JSON.parse(await made(partsOf([]), 'json')), { schema: 'test/1', others: true, sent: [], received: [], total: 0 });
  });

  it('checks each JSON item against the schema it is given: an item not in it fails the export, never sends it', async () => {
    const parts = partsOf([plain('sent', 1)]);
    const notInIt = async function* () {
      yield { value: { n: 'one' } };
    };
    await assert.rejects(made({ ...parts, items: { ...parts.items, json: notInIt } }, 'json'));
  });

  it('says a list with no item under its title, in its place, in Markdown', async () => {
    const md = await made(partsOf([plain('received', 7)]), 'md');
    assert.equal(md, '# One\n\n- Exported at 2026-12-01T00:00:00.000Z\n\n## Sent\n\nNothing.\n\n## Received\n\n### 7\n\n');
    assert.equal(await made(partsOf([]), 'md'), '# One\n\n- Exported at 2026-12-01T00:00:00.000Z\n\n## Sent\n\nNothing.\n\n## Received\n\nNothing.\n\n');
  });

  it("writes an NDJSON record's text last, as its bytes hold it: a JSON string when UTF-8, base64 when not, JSON made elsewhere as it is, null when there are none", async () => {
    const text = (value: NonNullable<ExportRecord['text']>['value']) => ({ name: 'fileText', base64Name: 'fileBase64', value });
    const lines = (
      await made(
        partsOf([
          plain('sent', 1, text({ bytes: Buffer.from('a "quote", a \\, a tab\t, \u0001 and ✓\n') })),
          plain('sent', 2, text({ bytes: Uint8Array.from([0x66, 0xff, 0x00]) })),
          plain('sent', 3, text({ json: Buffer.from('"made on a thread"') })),
          plain('sent', 4, text(null)),
          plain('sent', 5),
        ]),
        'ndjson',
      )
    )
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(lines, [
      { type: 'conversation', items: 5 },
      { n: 1, fileText: 'a "quote", a \\, a tab\t, \u0001 and ✓\n' },
      { n: 2, fileText: null, fileBase64: Buffer.from([0x66, 0xff, 0x00]).toString('base64') },
      { n: 3, fileText: 'made on a thread' },
      { n: 4, fileText: null },
      { n: 5 },
    ]);
  });

  it('writes a text made its JSON text on a thread byte for byte as the same text given as its bytes: UTF-8 as a JSON string, bytes that are not UTF-8 in base64', async () => {
    const texts = [Buffer.from('a "quote", a \\, a tab\t, \u0001 and ✓\n'), Buffer.from([0x7b, 0xff, 0xfe, 0x22, 0x7d]), Buffer.alloc(0)];
    const record = (n: number, value: ExportText) => plain('sent', n, { name: 'fileText', base64Name: 'fileBase64', value });
    const asBytes = await made(partsOf(texts.map((bytes, n) => record(n, { bytes }))), 'ndjson');
    const onThread = await made(
      partsOf(
        texts.map((bytes, n) => {
          const { json, base64 } = makeJsonText(bytes);
          return record(n, { json: Buffer.from(json, 'latin1'), base64 });
        }),
      ),
      'ndjson',
    );
    assert.equal(onThread, asBytes);
    assert.equal((JSON.parse(onThread.split('\n')[2]!) as { fileBase64?: string }).fileBase64, texts[1]!.toString('base64'));
  });

  it('writes a text of megabytes in slices, byte for byte what JSON.stringify writes, and its base64 whole', async () => {
    const big = Buffer.from(`${'line "one"\\\n'.repeat(100_000)}✓`);
    const notUtf8 = Buffer.concat([big, Buffer.from([0xc3])]);
    const [, first, second] = (await made(partsOf([plain('sent', 1, { name: 't', base64Name: 'b', value: { bytes: big } }), plain('sent', 2, { name: 't', base64Name: 'b', value: { bytes: notUtf8 } })]), 'ndjson')).split('\n');
    assert.equal(first, `{"n":1,"t":${JSON.stringify(big.toString('utf8'))}}`);
    assert.equal((JSON.parse(second!) as { b: string }).b, notUtf8.toString('base64'));
  });

  it('escapes every character below U+0100, a quote and a backslash at a slice\'s end and a character cut by it, byte for byte as JSON.stringify does', async () => {
    const every = Array.from({ length: 0x100 }, (_, code) => String.fromCharCode(code)).join('');
    // A slice is 64 KiB: a quote, a backslash and a ✓ (3 bytes) each placed across or at its end.
    const text = `${every}${'x'.repeat(65_536 - Buffer.byteLength(every) - 2)}"\\✓\u0000${every}`;
    const bytes = Buffer.from(text);
    // Pieces cut inside a character and right after an escaped byte.
    const cuts = [0, 1, 2, 300, 65_535, 65_537, bytes.length];
    const pieces = {
      utf8: true,
      async *read() {
        for (let at = 1; at < cuts.length; at++) yield bytes.subarray(cuts[at - 1], cuts[at]);
      },
    };
    const [, whole, inPieces] = (await made(partsOf([plain('sent', 1, { name: 't', base64Name: 'b', value: { bytes } }), plain('sent', 2, { name: 't', base64Name: 'b', value: { pieces } })]), 'ndjson')).split('\n');
    assert.equal(whole, `{"n":1,"t":${JSON.stringify(text)}}`);
    assert.equal(inPieces, `{"n":2,"t":${JSON.stringify(text)}}`);
  });

  it('stops asking the kind for items when its client goes away, and counts it stopped', async () => {
    const read: string[] = [];
    const stop = new AbortController();
    const before = describeExportActivity();
    const many = Array.from({ length: 20_000 }, (_, n) => plain('sent', n, { name: 't', base64Name: 'b', value: { bytes: Buffer.alloc(100, 0x61) } }));
    const chunks = exportBytes(partsOf(many, read), 'ndjson', { exportedAt: '', itemSchema: z.unknown(), signal: stop.signal });
    await chunks.next();
    stop.abort(new Error('the client went away'));
    await assert.rejects(async () => {
      for await (const _ of chunks);
    });
    assert.ok(read.length < many.length, `${read.length} of ${many.length} items read`);
    assert.equal(describeExportActivity().stopped, before.stopped + 1);
  });
});
