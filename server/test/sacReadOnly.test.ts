import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isSecretName } from '../../shared/sac/layout.ts';
import { sessionsResponseSchema } from '../../shared/wire/conversations.ts';
import { sacRoomsResponseSchema, sacSeatResponseSchema, sacSeatSummarySchema } from '../../shared/wire/sac.ts';
import { startSacWriter, type SacWriter } from '../../tools/writer/sacWriter.ts';
import { makeTempRecord } from './harness.ts';
import { getBody, seatUrl, startSacApp, writeExampleStore, type SacTestApp } from './sacApp.ts';

// Secrets are never opened, and nothing is written: a store with canaries in its secrets, read
// while a writer writes it, answered on every endpoint.

const CANARIES = ['CANARY-relay-4b1f', 'CANARY-token-77e0', 'CANARY-temporary-a9a9', 'CANARY-copy-0c0c', 'CANARY-linked-5e5e'];
const WEB = 'web-app#3f9c1a20';
const API = 'api-service#c4e10000';

let store: { dir: string; remove(): void };
let writer: SacWriter;
let served: SacTestApp;
const bodies: string[] = [];

/** Every name under the root with its size and digest; a secret's bytes are not read, only listed. */
function fingerprint(dir: string): string[] {
  const lines: string[] = [];
  const walk = (path: string, rel: string) => {
    const stat = lstatSync(path);
    if (stat.isDirectory()) {
      lines.push(`${rel}/`);
      for (const name of readdirSync(path).sort()) walk(join(path, name), `${rel}/${name}`);
    } else if (stat.isFile() && !isSecretName(rel.split('/').at(-1)!)) {
      lines.push(`${rel} ${stat.size}:${stat.mtimeMs}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
    } else {
      lines.push(`${rel} ${stat.isSymbolicLink() ? 'link' : 'secret'}:${stat.mtimeMs}:${stat.mode}`);
    }
  };
  walk(dir, '.');
  return lines;
}

async function fetchEverything(app: SacTestApp): Promise<void> {
  const take = async (url: string) => {
    const body = await getBody(app.app, url);
    bodies.push(body.text);
    return body;
  };
  const list = await take('/api/sessions');
  const seats = sessionsResponseSchema.parse(list.json).projects.flatMap((project) => project.sessions.map((summary) => sacSeatSummarySchema.parse(summary).seat));
  for (const seat of seats) {
    const page = sacSeatResponseSchema.parse((await take(seatUrl(seat, '?others=1'))).json);
    for (const item of [...page.sent, ...page.received]) await take(`${seatUrl(seat)}/items/${encodeURIComponent(item.item)}`);
  }
  const rooms = sacRoomsResponseSchema.parse((await take(`/api/sac/rooms?source=${app.source.ref.id}`)).json);
  for (const room of rooms.rooms) await take(`/api/sac/rooms/${encodeURIComponent(room.room)}?source=${app.source.ref.id}`);
  await take('/api/search?q=CANARY');
  await take('/api/search?q=relay&regex=1');
  await take('/api/search?q=token');
  await take(`${seatUrl(WEB)}/items/${encodeURIComponent('channels/team/../../relays.json:0')}`);
  await take(`/api/sac/rooms/..?source=${app.source.ref.id}`);
}

before(async () => {
  store = makeTempRecord('sac-readonly-');
  writer = await startSacWriter(store.dir);
  await writeExampleStore(writer);
  const secret = (path: string, text: string) => writer.send({ op: 'raw', path, bytes: Buffer.from(text).toString('base64') });
  await secret('relays.json', JSON.stringify({ relay: 'https://comm.example.com', secret: CANARIES[0] }));
  await secret('http-tokens.json', JSON.stringify({ 'web-app': { token: CANARIES[1] } }));
  await secret('relays.json.tmp.4242', JSON.stringify({ secret: CANARIES[2] }));
  await secret('HTTP-TOKENS.JSON.bak', JSON.stringify({ token: CANARIES[3] }));
  await secret('channels/team/relays.json', JSON.stringify({ secret: CANARIES[4] }));
  // A seat file that is a link to the secret: never followed.
  symlinkSync(join(store.dir, 'relays.json'), join(store.dir, 'channels/team/mallory#00000000.md'));
  for (const name of ['relays.json', 'http-tokens.json', 'relays.json.tmp.4242', 'HTTP-TOKENS.JSON.bak', 'channels/team/relays.json']) chmodSync(join(store.dir, name), 0o000);
  served = await startSacApp(store.dir);
});
after(async () => {
  await served.close();
  await writer.close();
  store.remove();
});

describe('a sac store is read only, and its secrets are never opened', () => {
  it('no endpoint’s answer holds a canary of a secret, and no error speaks of one, while a writer writes', async () => {
    for (let i = 0; i < 5; i++) {
      await writer.send({ op: 'send', room: 'team', seat: WEB, ts: `2026-11-30T17:30:0${i}.000+00:00`, type: 'FACT', text: `live ${i}: relays and tokens are someone else’s` });
      await writer.send({ op: 'send', room: 'dm', seat: API, ts: `2026-11-30T17:30:0${i}.500+00:00`, type: 'QUESTION', to: [WEB], text: `live question ${i}` });
      await fetchEverything(served);
    }
    const all = bodies.join('\n');
    assert.ok(all.includes('live 4'), 'the live entries were served');
    for (const canary of CANARIES) assert.ok(!all.includes(canary), `${canary} was served`);
    assert.ok(!/relays\.json|http-tokens|HTTP-TOKENS/i.test(all), 'a secret’s name was served');
    // An item notice carries its entry's first line, which here speaks of relays and tokens in words the writer wrote.
    const written = (key: string, value: unknown) => (key === 'firstLine' && typeof value === 'string' && /^live (question )?\d/.test(value) ? 'as written' : value);
    const told = [...served.errors, ...served.notices.map((notice) => JSON.stringify(notice, written))].join('\n');
    assert.ok(!/relays|tokens|EACCES|mallory/i.test(told), told);
  });

  it('reading, answering and reconciling write nothing in the store: no cursor, no seat or room file, no secret touched', async () => {
    const before = fingerprint(store.dir);
    await fetchEverything(served);
    // The watcher and a reconcile have their turn.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await fetchEverything(served);
    assert.deepEqual(fingerprint(store.dir), before);
    const names = before.map((line) => line.split(' ')[0]);
    assert.ok(!names.some((name) => /cursors\.json\.tmp|nudges/.test(name!)));
  });
});
