import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { searchResponseSchema } from '../../shared/wire/search.ts';
import { sentEntry, startEntry, receivedEntry } from '../../shared/test/recordFixtures.ts';
import type { Dashboard } from '../dashboard.ts';
import { eventually, getJson, startThreeStoreDashboard } from './harness.ts';
import { writeThreeStores, type ThreeStores } from './threeStores.ts';

// Search across a record, a spex home and a set-agent-comm store, each written by its own writer
// process: a filter of one kind's facts selects nothing of the other kinds, whose entries have no
// such fact. Every store holds a text with "cart" in it, so a text alone finds all three.

const SESSION = 'a1a1a1a1-0000-4000-8000-000000000001';

let stores: ThreeStores;
let dashboard: Dashboard;

before(async () => {
  stores = await writeThreeStores('sac-search', SESSION, [
    startEntry(0),
    sentEntry(1, 'the cart is queued'),
    sentEntry(2, 'the cart was refused', { isQueued: false, reason: 'recipient refuses inbound messages' }),
    receivedEntry(3, 'a cart for you', { outcome: 'queued' }),
  ]);
  dashboard = await startThreeStoreDashboard(stores);
  await eventually(async () => {
    const kinds = await kindsOf('q=cart');
    return kinds.includes('record') && kinds.includes('spex') && kinds.includes('sac') ? true : undefined;
  }, 'a hit of every kind');
});

after(async () => {
  await dashboard.close();
  await stores.remove();
});

async function kindsOf(query: string): Promise<string[]> {
  const found = await getJson(dashboard, `/api/search?${query}`, searchResponseSchema);
  return found.hits.map((hit) => hit.source.kind);
}

describe('search filters of one kind of store', () => {
  it('a text alone finds entries of every kind of store', async () => {
    assert.deepEqual(new Set(await kindsOf('q=cart')), new Set(['record', 'spex', 'sac']));
  });

  it('a set-agent-comm type, room or writer filter selects no record entry and no spex line', async () => {
    for (const filter of ['sac.type=QUESTION', 'sac.room=team', `sac.writer=${encodeURIComponent('api-service#c4e10000')}`]) {
      const kinds = await kindsOf(`q=cart&${filter}`);
      assert.ok(kinds.length > 0, `${filter} finds the sac entries about the cart`);
      assert.deepEqual(new Set(kinds), new Set(['sac']), filter);
    }
  });

  it('a set-agent-comm filter that matches no sac entry finds nothing at all', async () => {
    assert.deepEqual(await kindsOf('q=cart&sac.room=nowhere'), []);
    assert.deepEqual(await kindsOf(`sac.writer=${encodeURIComponent('nobody#00000000')}`), []);
  });

  it('an outcome or refused filter selects no set-agent-comm entry', async () => {
    const queued = await kindsOf('q=cart&record.outcome=queued');
    assert.deepEqual(queued, ['record']);
    const refused = await kindsOf('q=cart&record.refused=1');
    assert.deepEqual(refused, ['record']);
  });

  it('a filter for what a person sent selects only spex lines: record entries and set-agent-comm entries are written by sessions', async () => {
    const kinds = await kindsOf('q=cart&spex.person=1');
    assert.ok(kinds.includes('spex'));
    assert.deepEqual(new Set(kinds), new Set(['spex']), kinds.join(', '));
  });
});
