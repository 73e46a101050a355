import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { listPackagesLoaded } from '../test/packagesLoaded.ts';
import { describeBadSearchText } from './searchText.ts';

const SERVER = resolve(dirname(fileURLToPath(import.meta.url)), '..');

describe('the search text, checked when a search asks', () => {
  it('the dashboard and each kind\'s source load no regular-expression engine (re2js) before a search asks for one', () => {
    for (const module of ['dashboard.ts', 'record/recordSource.ts', 'spex/spexSource.ts', 'sac/sacSource.ts']) {
      assert.equal(listPackagesLoaded(resolve(SERVER, module)).has('re2js'), false, module);
    }
  });

  it('a regular expression that does not compile is told why; the same text as plain words, or no text, is searchable', async () => {
    assert.match((await describeBadSearchText({ q: 'a(b', regex: '1', case: '0' })) ?? '', /\S/);
    assert.equal(await describeBadSearchText({ q: 'a(b', regex: '0', case: '1' }), null);
    assert.equal(await describeBadSearchText({ q: '', regex: '1', case: '0' }), null);
  });
});
