import assert from 'node:assert/strict';
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sessionsResponseSchema } from '../../shared/wire/conversations.ts';
import { mapResponseSchema } from '../../shared/wire/map.ts';
import { startCommand, type RunningCommand } from './command.ts';
import { eventually } from './harness.ts';
import { A, PROJECT } from './spexHarness.ts';
import { writeThreeStores, type ThreeStores } from './threeStores.ts';

// A set-agent-comm store's secrets, hard-linked where a reader reads: a copy kept beside the
// secret (any name that begins with the secret's, in any case) into one of its rooms, and the
// secret itself into the record and into the spex home read by the same command. Each is the same
// file as a secret under another name, whichever store's reader meets it, in the first scan (the
// record's begins on its threads before the rest of the command loads) or live: never served.

const SESSION = '5ec2e700-0000-4000-8000-000000000001';
const TOKENS = 'CANARY-http-tokens-across-stores-3f1c';
const COPY = 'CANARY-relay-copy-beside-it-8a2d';
const LIVE = 'CANARY-linked-live-into-record-c7e4';

let stores: ThreeStores;
let command: RunningCommand;

const sent = (seq: number) => ({ kind: 'message', side: 'sent', sessionId: SESSION, at: `2026-11-20T09:00:0${seq}.000Z`, cwd: '/home/dev/shop', peer: { as: 'api-service' }, text: `entry ${seq}`, host: { queued: true } });
const recordFolder = () => join(stores.record, SESSION);

before(async () => {
  stores = await writeThreeStores('secrets-across', SESSION, [sent(1), sent(2)]);
  // The secrets as sac keeps them, and a person's copy beside one, in any case.
  await stores.sacWriter.send({ op: 'json', name: 'http-tokens.json', value: { 'web-app': { token: TOKENS } } });
  await stores.sacWriter.send({ op: 'raw', path: 'RELAYS.JSON.bak', bytes: Buffer.from(`## 2026-11-30T17:18:53.482+00:00 — FACT\n${COPY}\n`).toString('base64') });
  linkSync(join(stores.sac, 'RELAYS.JSON.bak'), join(stores.sac, 'channels', 'team', 'mallory#0000c0py.md'));
  linkSync(join(stores.sac, 'http-tokens.json'), join(recordFolder(), '2026-11-20T090003.000Z-3.json'));
  const spexSession = join(stores.spex, 'projects', PROJECT, 'sessions', A);
  mkdirSync(spexSession, { recursive: true });
  linkSync(join(stores.sac, 'http-tokens.json'), join(spexSession, 'timeline.ndjson'));
  command = await startCommand([stores.record, stores.spex, stores.sac, '--port', '0', '--no-open']);
});
after(async () => {
  command?.child.kill('SIGINT');
  await command?.exited;
  await stores?.remove();
});

/** Every body a client can be served of every conversation: the list, each page, each export, a search, the map. */
async function everything(): Promise<string> {
  const bodies: string[] = [];
  const take = async (path: string) => {
    const response = await command.get(path);
    const text = await response.text();
    bodies.push(text);
    return text;
  };
  const list = sessionsResponseSchema.parse(JSON.parse(await take('/api/sessions')));
  for (const project of list.projects) {
    for (const conversation of project.sessions) {
      const base = `/api/sources/${conversation.source.id}/conversations/${encodeURIComponent(conversation.id)}`;
      await take(`${base}?others=1`);
      for (const format of ['ndjson', 'json', 'md']) await take(`${base}/export?format=${format}`);
    }
  }
  await take('/api/search?q=CANARY');
  const sac = list.sources.find((source) => source.kind === 'sac')!;
  await take(`/api/sac/rooms/team?source=${sac.id}`);
  // The map, and each edge's messages with their first lines, read by each store as it answers.
  const map = mapResponseSchema.parse(JSON.parse(await take('/api/map')));
  for (const edge of map.edges) await take(`/api/map/messages?from=${encodeURIComponent(edge.from)}&to=${encodeURIComponent(edge.to)}`);
  return bodies.join('\n');
}

describe("a store's secrets, hard-linked into the stores the command reads", () => {
  it('are withheld in every store, by device and inode, and a copy kept beside a secret is a secret too', async () => {
    // Ready: every store read, the linked files among them.
    await eventually(async () => {
      const list = sessionsResponseSchema.parse(await (await command.get('/api/sessions')).json());
      return list.sources.every((source) => source.indexing.state === 'ready') ? true : undefined;
    }, 'every store read');
    const all = await everything();
    assert.ok(all.includes('entry 2'), 'the record was served');
    assert.ok(all.includes('mallory#0000c0py'), 'the linked seat is listed');
    for (const canary of [TOKENS, COPY]) assert.ok(!all.includes(canary), `${canary} was served`);
  });

  it("says where it is withheld: in the record, under an entry's name, that entry unread in its place, no entry said missing", async () => {
    const list = sessionsResponseSchema.parse(await (await command.get('/api/sessions')).json());
    const record = list.sources.find((source) => source.kind === 'record')!;
    const page = (await (await command.get(`/api/sources/${record.id}/conversations/${SESSION}`)).json()) as { items: { type: string; file?: string; evidence?: string; why?: string | null }[] };
    const linked = page.items.find((item) => item.file === '2026-11-20T090003.000Z-3.json');
    assert.equal(linked?.type, 'file');
    assert.equal(linked?.evidence, 'unreadable');
    assert.match(linked?.why ?? '', /^not read, so what this entry said is unknown: the same file \(device and inode\) as a secret of a store read here, under another name: withheld/);
    assert.deepEqual(page.items.filter((item) => item.type === 'gap' || item.type === 'stray'), []);
  });

  it('is withheld when linked into the record while it is watched', async () => {
    await stores.sacWriter.send({ op: 'json', name: 'http-tokens.json', value: { 'web-app': { token: LIVE } } });
    linkSync(join(stores.sac, 'http-tokens.json'), join(recordFolder(), '2026-11-20T090004.000Z-4.json'));
    writeFileSync(join(recordFolder(), '2026-11-20T090005.000Z-5.json'), JSON.stringify(sent(5)));
    await eventually(async () => ((await everything()).includes('entry 5') ? true : undefined), 'the entry written after it');
    assert.ok(!(await everything()).includes(LIVE), 'the secret linked live was served');
  });
});
