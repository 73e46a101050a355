import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createSacSource } from '../sac/sacSource.ts';
import { eventually } from '../test/harness.ts';
import { NotHere, type Answer } from '../sources/source.ts';
import { SAC_FORGED, SAC_TEAM, runSacDemo, seatOf } from './sacDemo.ts';

const root = mkdtempSync(join(tmpdir(), 'sac-demo-'));
after(() => rmSync(root, { recursive: true, force: true }));

const signal = new AbortController().signal;
function found<T>(answer: Answer<T>): T {
  if (answer instanceof NotHere) throw new Error(answer.why);
  return answer;
}

const sessions = ['web-app', 'api-service', 'docs', 'api-worker'].map((name, i) => ({ id: `${i}0000000-1111-2222-3333-444455556666`, cwd: `/demo/${name}`, name }));

type SacSource = ReturnType<typeof createSacSource>;

/**
 * Reads the store afresh, as a dashboard that starts on it does, until `probe` finds what it
 * looks for: the demo writes at its own pace, which a loaded machine slows.
 */
function readUntil<T>(root: string, what: string, probe: (source: SacSource) => Promise<T | undefined>): Promise<T> {
  return eventually(
    async () => {
      const source = createSacSource({ root });
      await source.start();
      try {
        return await probe(source);
      } finally {
        await source.close();
      }
    },
    what,
    30_000,
  );
}

describe('the demo’s set-agent-comm store', () => {
  it('holds every entry type, an addressed entry, a broadcast, a reply, a room of two, a forged header in a body, focus, quiet presence, a torn entry, and live entries', async () => {
    const controller = new AbortController();
    const running = runSacDemo(root, sessions, controller.signal, { intervalMs: 20 });
    const entriesIn = async (source: SacSource) => {
      const team = await source.views.rooms.one(SAC_TEAM, { flow: 'all', limit: 5_000 }, signal);
      return team instanceof NotHere ? 0 : team.items.filter((item) => item.type === 'entry').length;
    };
    await readUntil(root, 'live entries', async (source) => ((await entriesIn(source)) > 6 ? true : undefined));
    controller.abort();
    await running;
    const source = createSacSource({ root });
    await source.start();
    try {
      const team = found(await source.views.rooms.one(SAC_TEAM, { flow: 'all', limit: 5_000 }, signal));
      const entries = team.items.filter((item) => item.type === 'entry');
      assert.deepEqual(new Set(entries.map((entry) => entry.entryType)), new Set(['QUESTION', 'ANSWER', 'FACT', 'REQUEST']));
      assert.ok(entries.some((entry) => entry.typeWord === 'TÉNY'));
      assert.ok(entries.some((entry) => entry.to.length > 0) && entries.some((entry) => entry.to.length === 0));
      assert.ok(entries.some((entry) => entry.re?.state === 'resolved'));
      assert.ok(entries.some((entry) => entry.text?.includes(` ${SAC_FORGED}`)));
      assert.ok(team.room.torn > 0);
      assert.ok(entries.length > 6, 'live entries were written');
      const { rooms } = found(await source.views.rooms.list({}, signal));
      assert.ok(rooms.some((room) => room.kind === 'pair'));
      const web = found(await source.page(seatOf(sessions[0]!), { others: '0', limit: 100 }, signal));
      assert.equal(web.seat.focus.state, 'declared');
      assert.equal(web.seat.session.state, 'known');
      const quiet = found(await source.page(seatOf(sessions[3]!), { others: '0', limit: 100 }, signal));
      assert.equal(quiet.seat.presence.state, 'quiet');
      assert.equal(quiet.seat.neverWrote, true);
    } finally {
      await source.close();
    }
  });
});

describe('the demo’s live set-agent-comm traffic', () => {
  // Constant draws are the extremes: every pick the same line, the same seat, the same room.
  for (const draw of [0.05, 0.5, 0.95]) {
    it(`answers a live question with a live reply whose re names it, in its room (every draw ${draw})`, async () => {
      const live = mkdtempSync(join(tmpdir(), 'sac-demo-live-'));
      const controller = new AbortController();
      const began = Date.now();
      const running = runSacDemo(live, sessions, controller.signal, { intervalMs: 20, random: () => draw });
      try {
        const isLive = (at: string | null) => at !== null && Date.parse(at) >= began - 1_000;
        const replies = await readUntil(live, 'a live reply to a live question', async (source) => {
          const replies = [];
          for (const room of found(await source.views.rooms.list({}, signal)).rooms) {
            const items = found(await source.views.rooms.one(room.room, { flow: 'all', limit: 5_000 }, signal)).items.filter((item) => item.type === 'entry');
            replies.push(...items.filter((item) => isLive(item.at) && item.re?.state === 'resolved' && item.re.entries.every((target) => items.some((other) => other.item === target.item && isLive(other.at) && other.entryType === 'QUESTION'))));
          }
          return replies.length > 0 ? replies : undefined;
        });
        for (const reply of replies) assert.equal(reply.entryType, 'ANSWER');
      } finally {
        controller.abort();
        await running;
        rmSync(live, { recursive: true, force: true });
      }
    });
  }
});
