import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { SESSION, nameAt, sentEntry } from '../../shared/test/recordFixtures.ts';
import { mergeSorted } from '../../shared/mergeSorted.ts';
import { createSearchPool } from './searchPool.ts';
import { threadScript } from './threadLane.ts';

// The pool's budget is a request's: the stores one search asks (each with the request's signal)
// spend one budget between them, and another request has its own.

const RECORD_SEARCHER = threadScript('recordTexts', new URL('../record/x.ts', import.meta.url).href);

const dir = mkdtempSync(join(tmpdir(), 'rec-search-pool-'));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, SESSION));
const paths = [1, 2, 3].map((second) => {
  const path = join(dir, SESSION, nameAt(second, second));
  writeFileSync(path, JSON.stringify(sentEntry(second, `one two three, at ${second}`)));
  return path;
});
const query = { q: 'three', regex: false, matchCase: false };
/** The paths as a search's candidates, in their order: a merge of one list is that list. */
const candidatesOf = (list: string[]) => mergeSorted([list], () => false);

describe('a search pool', () => {
  it("spends one budget for the searches of one request: a store searched after the request's budget is spent searches nothing, and says so", async () => {
    const budgetMs = 200;
    const pool = createSearchPool({ budgetMs });
    try {
      const request = new AbortController();
      const first = await pool.search(RECORD_SEARCHER, candidatesOf(paths), (path) => path, query, 10, request.signal);
      assert.deepEqual({ hits: first.hits.length, stoppedEarly: first.stoppedEarly }, { hits: 3, stoppedEarly: null });
      await sleep(budgetMs + 100);
      const second = await pool.search(RECORD_SEARCHER, candidatesOf(paths), (path) => path, query, 10, request.signal);
      assert.deepEqual({ hits: second.hits.length, searched: second.stoppedEarly?.searched, candidates: second.stoppedEarly?.candidates }, { hits: 0, searched: 0, candidates: 3 });
      assert.ok(second.stoppedEarly!.afterMs >= budgetMs, `after ${second.stoppedEarly!.afterMs} ms, counted from the request's first search`);
      // Another request has a budget of its own.
      const another = await pool.search(RECORD_SEARCHER, candidatesOf(paths), (path) => path, query, 10, new AbortController().signal);
      assert.deepEqual({ hits: another.hits.length, stoppedEarly: another.stoppedEarly }, { hits: 3, stoppedEarly: null });
    } finally {
      await pool.close();
    }
  });
});
