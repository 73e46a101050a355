import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { startSacWriter, type SacWriter } from './sacWriter.ts';
import { startSpexWriter, type SpexWriter } from './spexWriter.ts';
import { startWriter, type Writer } from './writerClient.ts';

// Two Claude Code sessions whose ids share their first 8 characters, each in all three stores,
// each store written by its own writer process under `parent`: a record (its writer), a spex home
// (spex's O_APPEND lines) and a set-agent-comm store (sac's appends and renamed JSON), where sac
// names their seats `checkout#9c0ffee0` and `checkout#9c0ffee0-111` and its registry gives each
// seat's full session id. For tests of what joins on the full id only.

export const SESSION_A = '9c0ffee0-1111-4111-8111-00000000000a';
export const SESSION_B = '9c0ffee0-1111-4111-8111-00000000000b';
export const SEAT_A = 'checkout#9c0ffee0';
export const SEAT_B = 'checkout#9c0ffee0-111';
export const SAC_ROOM = 'checkout';
const CWD = '/home/dev/projects/checkout';
const SPEX_PROJECT = '-home-dev-projects-checkout';

export type TwoSessions = { record: string; spex: string; sac: string; recordWriter: Writer; spexWriter: SpexWriter; sacWriter: SacWriter; close(): Promise<void> };

const at = (minute: number) => `2026-11-30T09:0${minute}:00.000Z`;

function message(sessionId: string, minute: number, fields: Record<string, unknown>): Record<string, unknown> {
  return { kind: 'message', sessionId, at: at(minute), cwd: CWD, ...fields };
}

/**
 * Writes the two sessions. The record: A sent B two messages (the second not queued), B received
 * one from A and one from a socket it could not resolve, which it rejected. spex: B's log holds a
 * message from A, A's one from a person. sac: A asked B by seat; B told the room (a broadcast).
 */
export async function writeTwoSessions(parent: string): Promise<TwoSessions> {
  const [record, spex, sac] = ['record', 'spex', 'sac'].map((name) => path.join(parent, name)) as [string, string, string];
  for (const dir of [record, spex, sac]) await mkdir(dir, { recursive: true });

  const recordWriter = await startWriter(record);
  const start = (sessionId: string) => ({ kind: 'start', sessionId, at: at(0), cwd: CWD, host: 'claude-code', version: '2.1.314', inbound: 'accept' });
  await recordWriter.send({ op: 'write', sessionId: SESSION_A, seq: 1, entry: start(SESSION_A) });
  await recordWriter.send({ op: 'write', sessionId: SESSION_A, seq: 2, entry: message(SESSION_A, 1, { side: 'sent', peer: { as: 'uds:/tmp/cc-socks/4242.sock', sessionId: SESSION_B }, text: 'Can you review payments/client.ts?', isQueued: true }) });
  await recordWriter.send({
    op: 'write',
    sessionId: SESSION_A,
    seq: 3,
    entry: message(SESSION_A, 2, { side: 'sent', peer: { as: 'uds:/tmp/cc-socks/4242.sock', sessionId: SESSION_B }, text: 'And the refunds?', isQueued: false, reason: 'recipient refuses inbound messages' }),
  });
  await recordWriter.send({ op: 'write', sessionId: SESSION_B, seq: 1, entry: start(SESSION_B) });
  await recordWriter.send({
    op: 'write',
    sessionId: SESSION_B,
    seq: 2,
    entry: message(SESSION_B, 1, { side: 'received', peer: { as: 'uds:/tmp/cc-socks/4243.sock', sessionId: SESSION_A }, envelope: { origin: { kind: 'peer' } }, outcome: 'consumed', text: 'Can you review payments/client.ts?' }),
  });
  await recordWriter.send({
    op: 'write',
    sessionId: SESSION_B,
    seq: 3,
    entry: message(SESSION_B, 3, { side: 'received', peer: { as: 'uds:/tmp/cc-socks/9999.sock' }, envelope: { origin: { kind: 'peer' } }, outcome: 'rejected', text: 'Who is this?' }),
  });

  const spexWriter = await startSpexWriter(spex);
  for (const [sessionId, title] of [[SESSION_A, 'payments'], [SESSION_B, 'payments-review']] as const) {
    await spexWriter.send({ op: 'session', project: SPEX_PROJECT, sessionId, value: { session_id: sessionId, worktree_path: CWD, branch: `node/${title}`, title, name: '', parent: '', status: 'active', proposal: '', note: '', createdAt: 1, harness: 'claude', stopped: false, archived: false } });
  }
  await spexWriter.send({ op: 'event', project: SPEX_PROJECT, sessionId: SESSION_B, event: { ts: at(4), kind: 'sent', mid: 'b-1', text: 'Please review the retry loop.', from: SESSION_A } });
  await spexWriter.send({ op: 'event', project: SPEX_PROJECT, sessionId: SESSION_A, event: { ts: at(4), kind: 'sent', mid: 'a-1', text: 'Keep the old refund endpoint.', from: null, replyVia: 'note' } });

  const sacWriter = await startSacWriter(sac);
  const seat = (session: string, owner: number) => ({ session, owner, writers: {}, rooms: [SAC_ROOM], firstSeen: '2026-11-30T09:00:00.000+00:00', lastSeen: '2026-11-30T09:05:00.000+00:00' });
  await sacWriter.send({
    op: 'json',
    name: 'registry.json',
    value: { agents: { checkout: { agent: 'checkout', project: CWD, session: SESSION_B, host: hostname(), rooms: [SAC_ROOM], seats: { [SEAT_A]: seat(SESSION_A, 401), [SEAT_B]: seat(SESSION_B, 402) }, firstSeen: '2026-11-30T09:00:00.000+00:00', lastSeen: '2026-11-30T09:05:00.000+00:00' } } },
  });
  await sacWriter.send({ op: 'json', name: 'members.json', value: { [SEAT_A]: { rooms: [SAC_ROOM], left: [] }, [SEAT_B]: { rooms: [SAC_ROOM], left: [] } } });
  await sacWriter.send({ op: 'send', room: SAC_ROOM, seat: SEAT_A, ts: '2026-11-30T09:05:00.000+00:00', type: 'QUESTION', text: 'Is the refund endpoint frozen?', to: [SEAT_B] });
  await sacWriter.send({ op: 'send', room: SAC_ROOM, seat: SEAT_B, ts: '2026-11-30T09:06:00.000+00:00', type: 'FACT', text: 'Frozen until the 1st.' });

  return {
    record,
    spex,
    sac,
    recordWriter,
    spexWriter,
    sacWriter,
    async close() {
      await recordWriter.kill();
      await spexWriter.kill();
      await sacWriter.close();
    },
  };
}
