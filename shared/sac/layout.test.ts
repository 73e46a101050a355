import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyRoomFolder, classifySeatFile, classifyStoreName, isSecretName, mayOpen, seatFilePath } from './layout.ts';
import { classifyAddressing, parseSeatName } from './seatName.ts';

describe('which names under a sac root are rooms, seat files and store files', () => {
  it('every dot-folder under channels/ is skipped, .archive (retired rooms) included', () => {
    assert.deepEqual(classifyRoomFolder('.archive', 'folder'), { role: 'skipped', why: 'retired rooms' });
    assert.equal(classifyRoomFolder('.git', 'folder').role, 'skipped');
    assert.deepEqual(classifyRoomFolder('team', 'folder'), { role: 'room', room: 'team' });
    assert.deepEqual(classifyRoomFolder('dm-api-service-c4e10000-web-app-3f9c1a20', 'folder'), { role: 'room', room: 'dm-api-service-c4e10000-web-app-3f9c1a20' });
  });

  it('a file or a link under channels/ is not a room', () => {
    assert.equal(classifyRoomFolder('team', 'file').role, 'skipped');
    assert.deepEqual(classifyRoomFolder('team', 'link'), { role: 'skipped', why: 'a link: never followed' });
  });

  it('<seat>.md is the file its seat writes; README.md and temporaries are not seats', () => {
    assert.deepEqual(classifySeatFile('web-app#3f9c1a20.md', 'file'), { role: 'seat-file', seat: 'web-app#3f9c1a20' });
    assert.deepEqual(classifySeatFile('web-app@macmini#7b02e5d1.md', 'file'), { role: 'seat-file', seat: 'web-app@macmini#7b02e5d1' });
    assert.deepEqual(classifySeatFile('web-app.md', 'file'), { role: 'seat-file', seat: 'web-app' });
    assert.deepEqual(classifySeatFile('README.md', 'file'), { role: 'not-a-seat', why: 'the room’s README' });
    assert.equal(classifySeatFile('web-app#3f9c1a20.md.tmp.8690', 'file').role, 'not-a-seat');
    assert.equal(classifySeatFile('notes.txt', 'file').role, 'not-a-seat');
    assert.equal(classifySeatFile('.md', 'file').role, 'not-a-seat');
  });

  it('a seat file that is a link is never followed, whatever it points at', () => {
    assert.deepEqual(classifySeatFile('web-app.md', 'link'), { role: 'not-a-seat', why: 'a link: never followed' });
    assert.equal(classifySeatFile('web-app.md', 'folder').role, 'not-a-seat');
  });

  it("the store JSON files are read; nudges and stats are sac's own, not read; temporaries and links are not read", () => {
    assert.deepEqual(classifyStoreName('registry.json', 'file'), { role: 'store-file', file: 'registry.json' });
    assert.deepEqual(classifyStoreName('cursors.json', 'file'), { role: 'store-file', file: 'cursors.json' });
    assert.deepEqual(classifyStoreName('channels', 'folder'), { role: 'channels' });
    assert.equal(classifyStoreName('nudges.json', 'file').role, 'sac-own');
    assert.equal(classifyStoreName('stats', 'folder').role, 'sac-own');
    assert.equal(classifyStoreName('registry.json.tmp.8690', 'file').role, 'not-read');
    assert.equal(classifyStoreName('registry.json', 'link').role, 'not-read');
  });

  it('a seat file path names its room and seat as sac lays them out', () => {
    assert.equal(seatFilePath('team', 'web-app#3f9c1a20'), 'channels/team/web-app#3f9c1a20.md');
  });
});

describe('secrets are never opened', () => {
  const secretNames = ['relays.json', 'http-tokens.json', 'relays.json.tmp.4242', 'http-tokens.json.tmp.1', 'RELAYS.JSON', 'Http-Tokens.json', 'relays.json.bak'];

  it('relays.json, http-tokens.json, their temporaries and copies are secrets in any case', () => {
    for (const name of secretNames) {
      assert.equal(isSecretName(name), true, name);
      for (const kind of ['file', 'folder', 'link', 'other'] as const) assert.deepEqual(classifyStoreName(name, kind), { role: 'secret' }, `${name} as ${kind}`);
    }
  });

  it('the reader may open no secret, by any path', () => {
    const paths = [
      ...secretNames,
      'channels/../relays.json',
      './relays.json',
      'channels/team/../../relays.json',
      'channels/team/relays.json',
      'channels/relays.json/web-app.md',
      'channels/team/http-tokens.json.md',
      'relays.json/registry.json',
      '/relays.json',
      'channels\\..\\relays.json',
    ];
    for (const path of paths) assert.equal(mayOpen(path), false, path);
  });

  it('the reader may open the store files and seat files, and nothing else', () => {
    for (const path of ['registry.json', 'members.json', 'rooms.json', 'focus.json', 'presence.json', 'cursors.json', 'channels/team/web-app#3f9c1a20.md', 'channels/team/web-app.md']) {
      assert.equal(mayOpen(path), true, path);
    }
    for (const path of ['nudges.json', 'stats/web-app#3f9c1a20.jsonl', 'channels/team/README.md', 'channels/.archive/old/web-app.md', 'channels/.archive/web-app.md', 'channels/team', 'channels/team/x/y.md', 'registry.json.tmp.12', '', 'channels//web-app.md']) {
      assert.equal(mayOpen(path), false, path);
    }
  });
});

describe('seat names', () => {
  it('<agent>#<prefix> names an agent and a session id prefix', () => {
    assert.deepEqual(parseSeatName('web-app#3f9c1a20'), { seat: 'web-app#3f9c1a20', base: 'web-app', agent: 'web-app', host: null, id: '3f9c1a20' });
  });

  it('a plain <agent> is a seat with no id', () => {
    assert.deepEqual(parseSeatName('web-app'), { seat: 'web-app', base: 'web-app', agent: 'web-app', host: null, id: null });
  });

  it('<agent>@<host>#<id> is a remote seat: the registry keys it by agent@host', () => {
    assert.deepEqual(parseSeatName('web-app@macmini#7b02e5d1'), { seat: 'web-app@macmini#7b02e5d1', base: 'web-app@macmini', agent: 'web-app', host: 'macmini', id: '7b02e5d1' });
  });

  it('only the last #<id> ends the base, as sac’s seatBase reads it', () => {
    assert.equal(parseSeatName('a#b#c').base, 'a#b');
    assert.equal(parseSeatName('a#').base, 'a#');
    assert.equal(parseSeatName('a#').id, null);
  });
});

describe('whom an entry is addressed to, seen from a seat', () => {
  it('no `to` is to everyone', () => {
    assert.equal(classifyAddressing([], 'web-app#3f9c1a20'), 'to-everyone');
  });

  it('the seat’s own name is to the seat; its agent’s name is to its agent', () => {
    assert.equal(classifyAddressing(['web-app#3f9c1a20'], 'web-app#3f9c1a20'), 'to-seat');
    assert.equal(classifyAddressing(['web-app'], 'web-app#3f9c1a20'), 'to-agent');
    assert.equal(classifyAddressing(['web-app@macmini'], 'web-app@macmini#7b02e5d1'), 'to-agent');
    assert.equal(classifyAddressing(['web-app'], 'web-app@macmini#7b02e5d1'), 'to-agent');
  });

  it('a sibling seat of the same agent is someone else', () => {
    assert.equal(classifyAddressing(['web-app#7b02e5d1'], 'web-app#3f9c1a20'), 'to-others');
    assert.equal(classifyAddressing(['api-service'], 'web-app#3f9c1a20'), 'to-others');
  });
});
