import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupProjects } from './projects.ts';

describe('projects', () => {
  it('sessions are grouped by working directory, most recent project and session first', () => {
    const projects = groupProjects([
      { sessionId: 's1', cwd: '/a', lastAt: '2026-11-20T09:00:01.000Z' },
      { sessionId: 's2', cwd: '/b', lastAt: '2026-11-20T09:00:05.000Z' },
      { sessionId: 's3', cwd: '/a', lastAt: '2026-11-20T09:00:03.000Z' },
    ]);
    assert.deepEqual(
      projects.map((project) => [project.cwd, project.sessions.map((session) => session.sessionId)]),
      [['/b', ['s2']], ['/a', ['s3', 's1']]],
    );
  });

  it('sessions whose entries name no directory are grouped apart, not dropped', () => {
    const projects = groupProjects([
      { sessionId: 's1', cwd: null, lastAt: '2026-11-20T09:00:09.000Z' },
      { sessionId: 's2', cwd: '/a', lastAt: '2026-11-20T09:00:01.000Z' },
    ]);
    assert.deepEqual(projects.map((project) => project.cwd), [null, '/a']);
  });
});
