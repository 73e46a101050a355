import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { childrenInOtherProjects, findConversation, groupProjects, regroupProjects, type Project } from './projects.ts';

// What the page looks up in the list of every conversation (a live row's project and label, a
// chain child's parent in another project) is made again, when one write changes the list, for
// the project it changed only: while a store is indexed the list changes with every write told.

const RECORD = { kind: 'record', id: 'record-0123abcd' } as const;
type Member = { source: typeof RECORD; id: string; cwd: string | null; lastAt: string | null; parent: string | null };

function member(id: string, cwd: string, second: number, parent: string | null = null): Member {
  return { source: RECORD, id, cwd, lastAt: `2026-11-20T09:00:${String(second).padStart(2, '0')}.000Z`, parent };
}

/** The projects, each conversation counted when it is read out of its project's list. */
function counted(projects: Project<Member>[]): { projects: Project<Member>[]; reads: () => number } {
  let reads = 0;
  const watched = projects.map((project) => ({
    cwd: project.cwd,
    sessions: new Proxy(project.sessions, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    }),
  }));
  return { projects: watched, reads: () => reads };
}

const MANY = Array.from({ length: 300 }, (_, i) => member(`s${i}`, `/project/${i % 30}`, i % 60, i % 10 === 0 ? `s${(i + 7) % 300}` : null));

describe('lookups in the list, made again only for what a write changed', () => {
  test('a conversation is found by its source and id, and not found once no project lists it', () => {
    const projects = groupProjects(MANY);
    assert.equal(findConversation(projects, RECORD.id, 's42')?.cwd, '/project/12');
    assert.equal(findConversation(projects, 'spex-0123abcd', 's42'), undefined);
    const without = regroupProjects(projects, (one) => one.id === 's42', []);
    assert.equal(findConversation(without, RECORD.id, 's42'), undefined);
  });

  test('after a write to one project, finding a conversation reads no conversation of the projects the write left as they were', () => {
    const { projects, reads } = counted(groupProjects(MANY));
    assert.equal(findConversation(projects, RECORD.id, 's5')?.id, 's5');
    const written = member('s123', '/project/3', 59);
    const next = regroupProjects(projects, (one) => one.id === 's123', [written]);
    const before = reads();
    assert.equal(findConversation(next, RECORD.id, 's5')?.id, 's5');
    assert.equal(findConversation(next, RECORD.id, 's123'), written);
    const changed = next.find((project) => project.cwd === '/project/3')!.sessions.length;
    assert.ok(reads() - before <= changed, `${reads() - before} conversations read again; the project written to holds ${changed}`);
  });

  test('chain children listed in another project than their parent are found as a fresh look at the whole list finds them', () => {
    const parentOf = (one: Member) => one.parent;
    const projects = groupProjects(MANY);
    const { byParent, byProject } = childrenInOtherProjects(projects, parentOf);
    const expected = MANY.filter((one) => one.parent !== null && MANY.find((other) => other.id === one.parent)!.cwd !== one.cwd);
    assert.ok(expected.length > 0);
    assert.deepEqual([...byParent.values()].flat().map((one) => one.id).sort(), expected.map((one) => one.id).sort());
    for (const [cwd, children] of byProject) for (const child of children) assert.equal(MANY.find((one) => one.id === child.parent)!.cwd, cwd);
    // A child moved into its parent's project is no longer listed apart.
    const moved = { ...MANY[0]!, cwd: MANY.find((one) => one.id === MANY[0]!.parent)!.cwd, lastAt: '2026-11-20T09:01:00.000Z' };
    const next = regroupProjects(projects, (one) => one.id === moved.id, [moved]);
    assert.ok(!(childrenInOtherProjects(next, parentOf).byParent.get(`${RECORD.id}\u0000${moved.parent}`) ?? []).includes(moved));
  });

  test('after a write to one project, only its conversations are asked for their parent again', () => {
    let asked = 0;
    const parentOf = (one: Member) => {
      asked++;
      return one.parent;
    };
    const projects = groupProjects(MANY);
    childrenInOtherProjects(projects, parentOf);
    const next = regroupProjects(projects, (one) => one.id === 's200', [member('s200', '/project/20', 59)]);
    asked = 0;
    childrenInOtherProjects(next, parentOf);
    const changed = next.find((project) => project.cwd === '/project/20')!.sessions.length;
    assert.ok(asked <= changed, `${asked} conversations asked; the project written to holds ${changed}`);
  });
});
