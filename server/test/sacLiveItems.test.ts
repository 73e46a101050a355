import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { liveItemSchema, type LiveItem } from '../../shared/wire/common.ts';
import { startSacWriter, type SacWriter } from '../../tools/writer/sacWriter.ts';
import { TEST_PENDING_WINDOW_MS, eventually, makeTempRecord } from './harness.ts';
import { startSacApp, writeExampleStore, type SacTestApp } from './sacApp.ts';

// The live view's feed from a set-agent-comm store: every entry a writer process appends arrives
// as an item notice of its writer's seat, once, in the order of its file, each state of it once,
// in sac's words; what the first scan read is not told, and a secret never is.

const API = 'api-service#c4e10000';
const WEB = 'web-app#3f9c1a20';
const CANARY = 'CANARY-live-relay-5e1f';

let store: { dir: string; remove(): void };
let writer: SacWriter;
let served: SacTestApp;

before(async () => {
  store = makeTempRecord('sac-live-');
  writer = await startSacWriter(store.dir);
  await writeExampleStore(writer);
  await writer.send({ op: 'raw', path: 'relays.json', bytes: Buffer.from(JSON.stringify({ secret: CANARY })).toString('base64') });
  served = await startSacApp(store.dir, { pendingWindowMs: TEST_PENDING_WINDOW_MS });
  await eventually(() => (served.source.status().indexing.state === 'ready' ? true : undefined), 'first scan');
});
after(async () => {
  await served.close();
  await writer.close();
  store.remove();
});

type Told = { seat: string; item: LiveItem };

function told(): Told[] {
  return served.notices.flatMap((notice) => (notice.type === 'items' ? notice.items.map((item) => ({ seat: notice.id, item: liveItemSchema.parse(item) })) : []));
}

function toldIn(file: string): Told[] {
  return told().filter(({ item }) => item.key.startsWith(`${file}:`));
}

async function itemTold(match: (item: LiveItem) => boolean, what: string, timeoutMs = 5_000): Promise<Told> {
  return eventually(() => told().find(({ item }) => match(item)), what, timeoutMs);
}

const linkOf = (room: string, item: string) => `/source/${served.source.ref.id}/rooms/${encodeURIComponent(room)}/item/${encodeURIComponent(item)}`;

describe('set-agent-comm item notices', () => {
  it('what the first scan read is not told item by item', async () => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(told(), []);
  });

  it('every entry of two bursts of 500, written at once into two rooms, arrives once, in the order of its file, with its facts in sac’s words', { timeout: 120_000 }, async () => {
    const count = 500;
    const bursts = [
      { room: 'burst-a', seat: WEB, to: [API] },
      { room: 'burst-b', seat: API, to: [] as string[] },
    ];
    const writes: Promise<void>[] = [];
    for (let i = 0; i < count; i++) {
      for (const burst of bursts) {
        const ts = `2026-12-01T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000+01:00`;
        writes.push(writer.send({ op: 'send', room: burst.room, seat: burst.seat, ts, type: 'QUESTION', text: `  Question ${i} of ${burst.room}\nits second line`, to: burst.to }));
      }
    }
    await Promise.all(writes);
    for (const burst of bursts) {
      const file = `channels/${burst.room}/${burst.seat}.md`;
      await eventually(() => (toldIn(file).filter(({ item }) => item.evidence === 'parsed').length >= count ? true : undefined), `${count} entries of ${file}`, 60_000);
    }
    // Nothing more is on its way once the last entry parsed, but allow a straggler's flush.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const burst of bursts) {
      const file = `channels/${burst.room}/${burst.seat}.md`;
      const items = toldIn(file);
      assert.ok(items.every(({ seat }) => seat === burst.seat), 'told as its writer’s seat');
      const states = new Map<string, string[]>();
      for (const { item } of items) {
        const list = states.get(item.key) ?? [];
        assert.ok(!list.includes(item.evidence), `told twice: ${item.key} ${item.evidence}`);
        list.push(item.evidence);
        states.set(item.key, list);
      }
      assert.equal(states.size, count, 'every entry told');
      for (const [key, evidences] of states) assert.ok(evidences.join() === 'parsed' || evidences.join() === 'pending,parsed', `${key}: ${evidences.join(' then ')}`);
      const parsed = items.map(({ item }) => item).filter((item) => item.evidence === 'parsed');
      const starts = parsed.map((item) => Number(item.key.slice(file.length + 1)));
      assert.deepEqual(starts, starts.slice().sort((a, b) => a - b), 'in the order of its file');
      assert.deepEqual(
        parsed.map((item) => item.firstLine),
        Array.from({ length: count }, (_, i) => `Question ${i} of ${burst.room}`),
        'each with its body’s first line',
      );
      const first = parsed[0]!;
      assert.deepEqual(first, {
        key: `${file}:0`,
        at: '2026-12-01T09:00:00.000Z',
        kind: 'QUESTION',
        side: 'sent',
        peer: burst.to.length === 0 ? 'everyone' : burst.to.join(', '),
        words: burst.to.length === 0 ? 'QUESTION to everyone' : `QUESTION to ${burst.to.join(', ')}`,
        refused: false,
        evidence: 'parsed',
        degraded: false,
        firstLine: `Question 0 of ${burst.room}`,
        link: linkOf(burst.room, `${file}:0`),
      });
    }
  });

  it('an entry written slowly is told being written, then as its entry, under the same key', async () => {
    const text = 'Slow first line\nslow second line';
    await writer.send({ op: 'send', room: 'slow', seat: WEB, ts: '2026-12-01T11:00:00.000+00:00', type: 'KÉRDÉS', text, to: [API, 'web-app'], pieceBytes: 20, pieceDelayMs: 120 });
    const file = `channels/slow/${WEB}.md`;
    const entry = await itemTold((item) => item.key === `${file}:0` && item.evidence === 'parsed', 'the slow entry, parsed');
    assert.equal(entry.seat, WEB);
    assert.equal(entry.item.kind, 'KÉRDÉS');
    assert.equal(entry.item.words, `KÉRDÉS (QUESTION) to ${API}, web-app`);
    assert.equal(entry.item.peer, `${API}, web-app`);
    assert.equal(entry.item.firstLine, 'Slow first line');
    const evidences = toldIn(file).map(({ item }) => `${item.key} ${item.evidence}`);
    assert.ok(evidences.includes(`${file}:0 pending`), `told pending first: ${evidences.join('; ')}`);
    assert.ok(evidences.indexOf(`${file}:0 pending`) < evidences.indexOf(`${file}:0 parsed`));
    const pending = toldIn(file).find(({ item }) => item.evidence === 'pending')!.item;
    assert.equal(pending.words, 'being written');
    assert.equal(pending.degraded, true);
    assert.equal(pending.firstLine, null);
  });

  it('a torn entry is told as degraded evidence, stray text only as degraded evidence, and an entry after a torn one closes it', async () => {
    const old = new Date(Date.now() - 60_000).toISOString();
    const file = `channels/torn/${API}.md`;
    // Text before any header, then a header whose body never came, dated past the pending window.
    await writer.send({ op: 'raw', path: file, bytes: Buffer.from('notes before a header\n## 2026-12-01T12:00:00.000+00:00 — FACT\n').toString('base64'), mtime: old });
    const stray = await itemTold((item) => item.key === `${file}:0`, 'the stray text');
    assert.equal(stray.item.evidence, 'stray');
    assert.equal(stray.item.degraded, true);
    assert.equal(stray.item.kind, null);
    assert.equal(stray.item.side, null);
    assert.equal(stray.item.firstLine, null);
    const headerAt = Buffer.byteLength('notes before a header\n');
    // Seen before it was dated back, it waits one window from that first look, as every kind's pending file does.
    const torn = await itemTold((item) => item.key === `${file}:${headerAt}` && item.evidence === 'damaged', 'the torn entry', TEST_PENDING_WINDOW_MS + 5_000);
    assert.equal(torn.item.degraded, true);
    assert.match(torn.item.words, /torn/);
    assert.equal(torn.item.firstLine, null);
    assert.equal(torn.item.link, linkOf('torn', `${file}:${headerAt}`));
    await writer.send({ op: 'send', room: 'torn', seat: API, ts: '2026-12-01T12:00:05.000+00:00', type: 'ANSWER', text: 'After the torn one' });
    await itemTold((item) => item.key.startsWith(`${file}:`) && item.firstLine === 'After the torn one', 'the entry after it');
    assert.equal(toldIn(file).filter(({ item }) => item.key === `${file}:0`).length, 1, 'the stray text told once');
    // The reader may see the header before the writer dates the file back: it is then told being
    // written first, once, and torn once its window has passed; never torn twice.
    const states = toldIn(file).filter(({ item }) => item.key === `${file}:${headerAt}`).map(({ item }) => item.evidence);
    assert.ok(states.join() === 'damaged' || states.join() === 'pending,damaged', `the torn entry told once: ${states.join(' then ')}`);
  });

  it('never tells a secret', async () => {
    assert.ok(told().length > 0);
    assert.ok(!JSON.stringify(served.notices).includes(CANARY));
    assert.ok(!JSON.stringify(served.notices).includes('relays'));
  });
});
