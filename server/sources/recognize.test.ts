import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { recognizeStore } from './recognize.ts';

const base = mkdtempSync(join(tmpdir(), 'rec-recognize-'));
after(() => rmSync(base, { recursive: true, force: true }));

function dirWith(name: string, files: Record<string, string>): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    if (!path.endsWith('/')) writeFileSync(join(dir, path), text);
    else mkdirSync(join(dir, path), { recursive: true });
  }
  return dir;
}

describe('recognising a store by what it holds', () => {
  it('session folders of <time>-<seq>.json files are a record', () => {
    assert.deepEqual(recognizeStore(dirWith('record', { 's1/2026-11-20T090000.000Z-1.json': '{}' })), { kind: 'record' });
  });

  it('projects/*/sessions/ is a spex home', () => {
    assert.deepEqual(recognizeStore(dirWith('spex', { 'projects/-home-dev-app/sessions/': '' })), { kind: 'spex' });
  });

  it('channels/ beside registry.json is a set-agent-comm store', () => {
    assert.deepEqual(recognizeStore(dirWith('sac', { 'channels/general/': '', 'registry.json': '{}' })), { kind: 'sac' });
  });

  it('a directory that does not exist yet, or is empty, is a record nobody has written to yet', () => {
    assert.deepEqual(recognizeStore(join(base, 'not-yet')), { kind: 'record' });
    assert.deepEqual(recognizeStore(dirWith('empty', {})), { kind: 'record' });
  });

  it('a directory that is none of the kinds is refused with what was looked for', () => {
    const recognized = recognizeStore(dirWith('other', { 'notes.txt': 'x', 'src/index.ts': '' }));
    assert.equal(recognized.kind, null);
    assert.match(recognized.kind === null ? recognized.why : '', /holds none of: a record \(session folders of <time>-<seq>\.json files\), a spex home \(projects\/\*\/sessions\/\) or a set-agent-comm store \(channels\/ and registry\.json\)/);
  });

  it('a file is refused, and says to give a folder', () => {
    const file = join(dirWith('has-file', { 'f.txt': 'x' }), 'f.txt');
    const recognized = recognizeStore(file);
    assert.equal(recognized.kind, null);
  });
});
