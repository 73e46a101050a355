import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startCommand } from './command.ts';
import { eventually } from './harness.ts';

// The demo's three stores are one machine's: each session sits under the same project in the
// record, in spex and in set-agent-comm, and sac's seats did not all check in at one instant; the
// demo's process writes for them all.

type Listed = { source: { kind: string }; id: string; cwd: string | null; session?: { state: string; session?: string }; lastSeen?: string | null; liveness?: { word: string; why: string } };

test('in the demo each session sits under the same project in every store, and the sac seats do not all share one last activity, each live by a process that writes for it', { timeout: 60_000 }, async () => {
  const claudeSession = (one: Listed) => (one.source.kind === 'sac' ? (one.session?.state === 'known' ? (one.session.session ?? null) : null) : one.id);
  const running = await startCommand(['--demo', '--port', '0']);
  try {
    // A store's metadata (spex's session.json, sac's registry) is read once it has settled: until
    // then a session sits under its folder's name. The claim is of the stores once read.
    const listed = await eventually(
      async () => {
        const body = (await (await running.get('/api/sessions')).json()) as { projects: { sessions: Listed[] }[] };
        const all = body.projects.flatMap((project) => project.sessions);
        if (!['record', 'spex', 'sac'].every((kind) => all.some((one) => one.source.kind === kind))) return undefined;
        const projects = new Map<string, Set<string>>();
        for (const one of all) {
          const id = claudeSession(one);
          if (id !== null) projects.set(id, (projects.get(id) ?? new Set()).add(`${one.cwd}`));
        }
        const shared = all.filter((one) => one.source.kind !== 'record').map(claudeSession);
        assert.ok(shared.length >= 3, `sessions in spex and sac: ${shared.length}`);
        if (shared.includes(null)) return undefined; // a seat whose session sac's registry has not told yet
        for (const id of shared) assert.equal(projects.get(id!)!.size, 1, `session ${id} is under one project in every store: ${[...projects.get(id!)!].join(', ')}`);
        return all;
      },
      'every store of the demo listed, each session under one project in every store',
      30_000,
    );
    const seen = listed.filter((one) => one.source.kind === 'sac').map((one) => one.lastSeen);
    assert.ok(new Set(seen).size > 1, `the seats' last activity: ${seen.join(', ')}`);
    // The demo's process writes for every seat: none is taken for another process under its pid.
    for (const seat of listed.filter((one) => one.source.kind === 'sac')) assert.equal(seat.liveness?.word, 'live', `${seat.id}: ${seat.liveness?.why}`);
  } finally {
    running.child.kill('SIGTERM');
    await running.exited;
  }
});
