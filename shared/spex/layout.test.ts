import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROJECT, WORKTREE } from './fixtures.test.ts';
import { type ListedName, compareSegments, encodeProjectPath, labelProject, listSegments, parseSegmentName } from './layout.ts';

const file = (name: string): ListedName => ({ name, type: 'file' });

describe('which names in a session folder are its timeline, and in what order', () => {
  it('the legacy timeline.ndjson comes first, then the numbered segments', () => {
    const layout = listSegments([file('session.json'), file('timeline.ndjson'), { name: 'timeline', type: 'folder' }], [file('000000000001.ndjson')]);
    assert.deepEqual(layout.segments, [
      { name: 'timeline.ndjson', number: null },
      { name: 'timeline/000000000001.ndjson', number: '1' },
    ]);
    assert.deepEqual(layout.strays, []);
  });

  it('numbered segments are ordered by numeric value, never as text, however many digits', () => {
    const names = ['10.ndjson', '9.ndjson', '000000000002.ndjson', '123456789012345678901234567890.ndjson', '0000000000011.ndjson'];
    const layout = listSegments([], names.map(file));
    assert.deepEqual(
      layout.segments.map((segment) => segment.name),
      ['timeline/000000000002.ndjson', 'timeline/9.ndjson', 'timeline/10.ndjson', 'timeline/0000000000011.ndjson', 'timeline/123456789012345678901234567890.ndjson'],
    );
  });

  it('two spellings of one number are both segments, in a fixed order', () => {
    const layout = listSegments([], [file('000000000001.ndjson'), file('1.ndjson')]);
    assert.deepEqual(layout.segments, [
      { name: 'timeline/000000000001.ndjson', number: '1' },
      { name: 'timeline/1.ndjson', number: '1' },
    ]);
  });

  it('the order does not depend on the order the shell listed the names in', () => {
    const names = ['3.ndjson', '1.ndjson', '2.ndjson'].map(file);
    assert.deepEqual(listSegments([file('timeline.ndjson')], names), listSegments([file('timeline.ndjson')], names.toReversed()));
  });

  it('a name in timeline/ that is not a segment name is a stray: listed, never read', () => {
    const layout = listSegments([], [file('000000000001.ndjson'), file('000000000002.ndjson.gz'), file('notes.txt'), file('-1.ndjson'), file('1.NDJSON')]);
    assert.deepEqual(layout.segments.map((segment) => segment.name), ['timeline/000000000001.ndjson']);
    assert.deepEqual(
      layout.strays.map((stray) => stray.name),
      ['timeline/-1.ndjson', 'timeline/000000000002.ndjson.gz', 'timeline/1.NDJSON', 'timeline/notes.txt'],
    );
    assert.match(layout.strays[0]!.why, /not a segment name/);
  });

  it('a link, a folder or a device under a segment name is a stray, and a link is never followed', () => {
    const layout = listSegments(
      [{ name: 'timeline.ndjson', type: 'link' }],
      [{ name: '000000000001.ndjson', type: 'link' }, { name: '000000000002.ndjson', type: 'folder' }, { name: '000000000003.ndjson', type: 'other' }],
    );
    assert.deepEqual(layout.segments, []);
    assert.deepEqual(layout.strays, [
      { name: 'timeline.ndjson', why: 'a symbolic link where the legacy segment belongs: never read' },
      { name: 'timeline/000000000001.ndjson', why: 'a symbolic link under a segment name: never read' },
      { name: 'timeline/000000000002.ndjson', why: 'a folder under a segment name: never read' },
      { name: 'timeline/000000000003.ndjson', why: 'something that is not a file under a segment name: never read' },
    ]);
  });

  it("spex's delivery state and bookkeeping in the session folder are neither segments nor strays", () => {
    const layout = listSegments([file('session.json'), file('cursors.json'), file('pending.json'), file('session.json.tmp-4242'), file('timeline.ndjson.bak')], null);
    assert.deepEqual(layout, { segments: [], strays: [] });
  });

  it('a file named timeline where the segment folder belongs is a stray', () => {
    assert.deepEqual(listSegments([file('timeline')], null).strays, [{ name: 'timeline', why: 'a file where the segment folder belongs: never read' }]);
  });

  it('a session with no timeline at all has no segments, which is nothing recorded, not a problem', () => {
    assert.deepEqual(listSegments([file('session.json')], null), { segments: [], strays: [] });
  });

  it('a segment name reads back to its place, and other names to none', () => {
    assert.deepEqual(parseSegmentName('timeline/000000000042.ndjson'), { name: 'timeline/000000000042.ndjson', number: '42' });
    assert.deepEqual(parseSegmentName('timeline.ndjson'), { name: 'timeline.ndjson', number: null });
    assert.equal(parseSegmentName('000000000042.ndjson'), null);
    assert.equal(parseSegmentName('timeline/x.ndjson'), null);
    assert.equal(parseSegmentName('session.json'), null);
  });

  it('segment zero still comes after the legacy segment', () => {
    assert.ok(compareSegments({ name: 'timeline.ndjson', number: null }, { name: 'timeline/0.ndjson', number: '0' }) < 0);
    assert.deepEqual(parseSegmentName('timeline/000.ndjson'), { name: 'timeline/000.ndjson', number: '0' });
  });
});

describe("a project folder's label", () => {
  it('the encoded name is the path with every / and . made -', () => {
    assert.equal(encodeProjectPath(WORKTREE), PROJECT);
  });

  it('a worktree_path that encodes to the folder name labels the project as its repository', () => {
    const label = labelProject(PROJECT, ['/home/dev/projects/my.app/.worktrees/feature', WORKTREE, WORKTREE]);
    assert.deepEqual(label, {
      label: WORKTREE,
      source: 'repository',
      encodedName: PROJECT,
      worktreePaths: ['/home/dev/projects/my.app/.worktrees/feature', WORKTREE],
    });
  });

  it("without one, a session's worktree_path labels it, said to come from there", () => {
    const label = labelProject(PROJECT, ['', null, '/srv/checkout']);
    assert.equal(label.label, '/srv/checkout');
    assert.equal(label.source, 'worktree_path');
  });

  it('with no worktree_path at all the encoded name is shown as such, never decoded into a path', () => {
    const label = labelProject(PROJECT, [null, '']);
    assert.deepEqual(label, { label: PROJECT, source: 'encoded-name', encodedName: PROJECT, worktreePaths: [] });
  });
});
