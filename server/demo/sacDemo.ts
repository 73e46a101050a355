import { open, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { appendSacEntry, joinSacRoom, sacEntryBytes, sacTime, writeSacJson, type SacEntry } from './sacWrite.ts';

// The demo's set-agent-comm store: the demo's sessions also talk through sac rooms, written exactly
// as sac's CLI writes them (sacWrite.ts). The backlog has every entry type, an addressed entry, a
// broadcast, a reply, a room of two, a forged header escaped in a body, a legacy type word, focus
// and quiet presence, a seat that joined and never wrote, and a torn entry; live traffic adds
// entries between the seats, questions answered by a reply (re) the next moment, some written
// slowly so that a reader sees one half-written.

type SacDemoSession = { id: string; cwd: string; name: string };

type SacDemoOptions = { intervalMs?: number; random?: () => number; onError?: (error: Error) => void };

export const SAC_TEAM = 'team';
export const SAC_FORGED = '## 2099-01-01T00:00:00.000+02:00 — FACT';

const LIVE_QUESTIONS = [
  { text: 'Is anyone touching src/cart/totals.ts right now?', answer: 'Not me, go ahead.' },
  { text: 'Which port does the mock server use now?', answer: '4010, as before.' },
  { text: 'Did the currency rounding land on staging?', answer: 'Yes, since the last deploy.' },
];
const LIVE_OTHERS = [
  { type: 'FACT', text: 'CI is green on main again.' },
  { type: 'REQUEST', text: 'Please hold merges to main for ten minutes, I am tagging a release.' },
  { type: 'FACT', text: 'Staging has the new currency rounding.' },
];
/** Every this many live entries, one is a question; the next entry answers it. */
const QUESTION_EVERY = 4;

export function seatOf(session: SacDemoSession): string {
  return `${session.name}#${session.id.slice(0, 8)}`;
}

/** The room of two sac makes for a direct conversation: `dm-<a>-<b>`, the seats in name order. */
function pairRoomOf(a: string, b: string): { room: string; pair: [string, string] } {
  const pair = [a, b].sort() as [string, string];
  return { room: `dm-${pair.map((seat) => seat.replace('#', '-')).join('-')}`, pair };
}

/** Writes the backlog, then live traffic until `signal` aborts. Needs at least three sessions. */
export async function runSacDemo(root: string, sessions: readonly SacDemoSession[], signal: AbortSignal, options: SacDemoOptions = {}): Promise<void> {
  const [first, second, third, ...rest] = sessions;
  if (first === undefined || second === undefined || third === undefined) throw new Error('the sac demo needs three sessions');
  const intervalMs = options.intervalMs ?? 1000;
  const random = options.random ?? Math.random;
  const onError = options.onError ?? ((error: Error) => process.stderr.write(`sac demo: ${error.message}\n`));
  const web = seatOf(first);
  const api = seatOf(second);
  const docs = seatOf(third);
  const quiet = rest[0] === undefined ? null : seatOf(rest[0]);
  const talkers = [web, api, docs];
  const dm = pairRoomOf(web, api);
  let clock = Date.now() - 20 * 60_000;
  const at = () => sacTime(new Date((clock += 1_337)));

  // The store's JSON files, as sac's join, focus and quiet write them.
  const all = [first, second, third, ...rest];
  const seats: Record<string, string[]> = Object.fromEntries(all.map((session) => [seatOf(session), [SAC_TEAM]]));
  seats[web]!.push(dm.room);
  seats[api]!.push(dm.room);
  const agents: Record<string, unknown> = {};
  for (const [index, session] of all.entries()) {
    const seat = seatOf(session);
    // Filed under this machine's name, as sac files an agent: the writer's pid is this machine's.
    const agent = (agents[session.name] ??= { agent: session.name, project: session.cwd, session: session.id, host: hostname(), rooms: [SAC_TEAM], seats: {} }) as { seats: Record<string, unknown>; lastSeen?: string };
    // Each seat checked in at its own time, as seats of real sessions do: the first just now, the others minutes apart.
    // This process writes for every seat, from now: a writer dated before it started would be another process under its pid.
    const now = sacTime(new Date(Date.now() - index * 7 * 60_000));
    agent.seats[seat] = { session: session.id, owner: process.pid, writers: { [String(process.pid)]: sacTime() }, rooms: seats[seat], firstSeen: now, lastSeen: now };
    agent.lastSeen = now;
  }
  await writeSacJson(root, 'registry.json', { agents });
  await writeSacJson(root, 'members.json', Object.fromEntries(Object.entries(seats).map(([seat, rooms]) => [seat, { rooms, left: [] }])));
  await writeSacJson(root, 'rooms.json', { [SAC_TEAM]: { by: web, at: at() }, [dm.room]: { by: web, at: at(), pair: dm.pair } });
  await writeSacJson(root, 'focus.json', {
    [web]: { text: 'reworking the checkout form', files: ['src/checkout/', 'src/lib/cart.ts'], phase: 'apply', ts: sacTime() },
    [api]: { text: 'the v2 orders endpoint', files: ['api/orders/'], phase: 'verify', ts: sacTime(new Date(Date.now() - 5 * 3600_000)) },
  });
  if (quiet !== null) await writeSacJson(root, 'presence.json', { [quiet]: { quiet: true, since: sacTime(), until: sacTime(new Date(Date.now() + 2 * 3600_000)) } });

  // The backlog of room `team`: every type, addressed, broadcast, a reply, a forged header in a body.
  const send = (room: string, seat: string, entry: Omit<SacEntry, 'ts'> & { ts?: string }) => appendSacEntry(root, room, seat, { ts: entry.ts ?? at(), ...entry });
  const question = at();
  await send(SAC_TEAM, api, { ts: question, type: 'QUESTION', to: [first.name], text: 'Does the cart still POST /v1/orders, or did you move to /v2?' });
  await send(SAC_TEAM, api, { type: 'FACT', text: `Deployed api-service 2.4.0 to staging.\n\nA header pasted from a file, which sac escapes:\n${SAC_FORGED}\n(the line above is body text)` });
  await send(SAC_TEAM, web, { type: 'ANSWER', to: [api], re: question, text: '/v2 since Tuesday. /v1 still answers, it 301s.' });
  await send(SAC_TEAM, api, { type: 'REQUEST', to: [web], text: 'Please bump the cart client to 2.4.0 before the release.' });
  await send(SAC_TEAM, docs, { type: 'TÉNY', text: 'The docs site builds again (a fact, in sac’s older word for it).' });
  await send(dm.room, web, { type: 'QUESTION', to: [api], text: 'Just between us: can the release wait until tomorrow?' });
  await send(dm.room, api, { type: 'ANSWER', re: sacTime(new Date(clock)), text: 'Yes, tomorrow 10:00.' });
  if (quiet !== null) await joinSacRoom(root, SAC_TEAM, quiet);
  await writeSacJson(root, 'cursors.json', { [`${SAC_TEAM}::${web}`]: { [api]: question } });
  // A write cut short long ago: a torn entry.
  const torn = sacEntryBytes(1, { ts: at(), type: 'FACT', text: 'Rolling back the cache change because p95 went' });
  const tornFile = path.join(root, 'channels', SAC_TEAM, `${docs}.md`);
  const handle = await open(tornFile, 'a');
  await handle.write(torn.subarray(0, torn.length - 12));
  await handle.close();
  const old = new Date(Date.now() - 60_000);
  await utimes(tornFile, old, old);

  // Live: entries between the seats of `team` (not the torn file's seat, which stays torn), some
  // slow. A question is answered by the next entry, in its room, with a re naming its time: a
  // reply that arrives live, as the backlog's does not.
  type Asked = { room: string; seat: string; ts: string; answer: string };
  let asked: Asked | null = null;
  const liveTalkers = talkers.filter((seat) => seat !== docs);
  for (let n = 0; !signal.aborted; n++) {
    try {
      await sleep(intervalMs * (1 + 2 * random()), undefined, { signal });
    } catch {
      return;
    }
    try {
      const ts = sacTime();
      let room: string;
      let seat: string;
      let entry: SacEntry;
      // What is asked once this entry is written: a failed write leaves things as they were.
      let then: Asked | null = null;
      if (asked !== null) {
        const question: Asked = asked;
        room = question.room;
        seat = liveTalkers.find((candidate) => candidate !== question.seat)!;
        entry = { ts, type: 'ANSWER', to: [question.seat], re: question.ts, text: question.answer };
      } else {
        seat = liveTalkers[Math.floor(random() * liveTalkers.length)]!;
        const other = liveTalkers.find((candidate) => candidate !== seat)!;
        room = random() < 0.2 ? dm.room : SAC_TEAM;
        if (n % QUESTION_EVERY === 0) {
          const question = LIVE_QUESTIONS[Math.floor(random() * LIVE_QUESTIONS.length)]!;
          entry = { ts, type: 'QUESTION', text: question.text };
          then = { room, seat, ts, answer: question.answer };
        } else {
          const line = LIVE_OTHERS[Math.floor(random() * LIVE_OTHERS.length)]!;
          entry = { ts, type: line.type, text: line.text };
        }
        if (random() < 0.5) entry.to = [other];
      }
      // One write in three goes in pieces, a reader sees it half-written first.
      const slow = n % 3 === 2 ? { pieceBytes: 24, pieceDelayMs: Math.max(50, intervalMs / 4) } : {};
      await appendSacEntry(root, room, seat, entry, slow);
      asked = then;
    } catch (error) {
      onError(error as Error);
    }
  }
}
