import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupProjects } from './projects.ts';

const RECORD = { kind: 'record', id: 'record-0123abcd' } as const;

describe('projects', () => {
  it('a session id held by two sources is listed twice, once per source, never merged', () => {
    const projects = groupProjects([
      { source: RECORD, id: 's1', cwd: '/a', lastAt: '2026-11-20T09:00:01.000Z' },
      { source: { kind: 'spex', id: 'spex-0123abcd' } as const, id: 's1', cwd: '/a', lastAt: '2026-11-20T09:00:01.000Z' },
    ]);
    assert.deepEqual(projects[0]!.sessions.map((session) => session.source.kind), ['record', 'spex']);
  });

  it('sessions are grouped by working directory, most recent project and session first', () => {
    const projects = groupProjects([
      { source: RECORD, id: 's1', cwd: '/a', lastAt: '2026-11-20T09:00:01.000Z' },
      { source: RECORD, id: 's2', cwd: '/b', lastAt: '2026-11-20T09:00:05.000Z' },
      { source: RECORD, id: 's3', cwd: '/a', lastAt: '2026-11-20T09:00:03.000Z' },
    ]);
    assert.deepEqual(
      projects.map((project) => [project.cwd, project.sessions.map((session) => session.id)]),
      [['/b', ['s2']], ['/a', ['s3', 's1']]],
    );
  });

  it('sessions whose entries name no directory are grouped apart, not dropped', () => {
    const projects = groupProjects([
      { source: RECORD, id: 's1', cwd: null, lastAt: '2026-11-20T09:00:09.000Z' },
      { source: RECORD, id: 's2', cwd: '/a', lastAt: '2026-11-20T09:00:01.000Z' },
    ]);
    assert.deepEqual(projects.map((project) => project.cwd), [null, '/a']);
  });
});
