import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SearchReply, SearchRequest, TextQuery } from './searchThread.ts';
import { ThreadsBusy, ThreadsClosed, createLane, threadScript } from './threadLane.ts';

// A lane of reader threads: so many at work, so many waiting, the rest refused; a request that
// goes away leaves its place, and closing ends the work in progress. Its threads here are search
// threads, searching the record's candidates (entries' paths).

const RECORD_SEARCHER = threadScript('recordTexts', new URL('../record/x.ts', import.meta.url).href).href;

function createSearchLane(threads: number, maxWaiting: number) {
  return createLane<SearchRequest, SearchReply>({ script: threadScript('searchThread', import.meta.url), threads, maxWaiting, idleMs: 1_000 });
}

function searchOf(paths: (string | null)[], query: TextQuery | null): SearchRequest {
  return { type: 'search', searcher: RECORD_SEARCHER, candidates: paths, query, wanted: 1, budgetMs: 60_000 };
}

function gate(): { open(): void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('a lane of reader threads', () => {
  it('takes so many at work and so many waiting, refuses the rest, and serves the waiting in order', async () => {
    const lane = createSearchLane(1, 2);
    try {
      const first = gate();
      const order: string[] = [];
      const working = lane.use(undefined, async () => {
        await first.opened;
        order.push('first');
      });
      const second = lane.use(undefined, async () => void order.push('second'));
      const third = lane.use(undefined, async (ask) => {
        const found = await ask(searchOf([null], null));
        order.push(`third: ${found.scanned} read`);
      });
      await assert.rejects(lane.use(undefined, async () => {}), (error) => error instanceof ThreadsBusy && error.running === 1 && error.waiting === 2);
      first.open();
      await Promise.all([working, second, third]);
      assert.deepEqual(order, ['first', 'second', 'third: 0 read']);
    } finally {
      await lane.close();
    }
  });

  it('a request that goes away while waiting leaves its place to the next', async () => {
    const lane = createSearchLane(1, 1);
    try {
      const first = gate();
      const working = lane.use(undefined, () => first.opened);
      const client = new AbortController();
      const leaving = lane.use(client.signal, async () => assert.fail('work of a request that went away'));
      client.abort(new Error('the client went away'));
      await assert.rejects(leaving, /the client went away/);
      const next = lane.use(undefined, async () => 'served');
      first.open();
      await working;
      assert.equal(await next, 'served');
    } finally {
      await lane.close();
    }
  });

  it('a request that goes away while its thread works ends that thread, and the next gets a new one', async () => {
    const lane = createSearchLane(1, 1);
    try {
      const client = new AbortController();
      const started = gate();
      const abandoned = lane.use(client.signal, async (ask) => {
        started.open();
        // Never answered in time: the thread is ended under it.
        for (;;) await ask(searchOf([], { q: '(a+)+$', regex: true, matchCase: false }));
      });
      await started.opened;
      client.abort(new Error('the client went away'));
      await assert.rejects(abandoned, /the client went away/);
      const found = await lane.use(undefined, (ask) => ask(searchOf([], null)));
      assert.deepEqual(found, { type: 'searched', hits: [], consumed: 0, scanned: 0, outOfTime: false });
    } finally {
      await lane.close();
    }
  });

  it('closing ends the work in progress and refuses what waits and what comes', async () => {
    const lane = createSearchLane(1, 1);
    const working = lane.use(undefined, async (ask) => {
      for (;;) await ask(searchOf([], null));
    });
    const waiting = lane.use(undefined, async () => {});
    const refused = [assert.rejects(working, ThreadsClosed), assert.rejects(waiting, ThreadsClosed)];
    await new Promise((resolve) => setTimeout(resolve, 200));
    await lane.close();
    await Promise.all(refused);
    await assert.rejects(lane.use(undefined, async () => {}), ThreadsClosed);
  });

  it('work asked only of a free thread never waits: none started, it is refused at once; one warmed, it runs; busy, it is refused', async () => {
    // Room for two threads, one started.
    const lane = createSearchLane(2, 1);
    try {
      assert.equal(lane.useIdle(undefined, async () => 'ran'), null, 'no thread started yet');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(lane.useIdle(undefined, async () => 'ran'), null, 'none is started by asking');
      lane.warm();
      // The one warmed is parked once loaded.
      let ran: Promise<string> | null = null;
      for (const started = performance.now(); ran === null && performance.now() - started < 10_000; ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        ran = lane.useIdle(undefined, async (ask) => `ran: ${(await ask(searchOf([null], null))).scanned} read`);
      }
      assert.notEqual(ran, null, 'a thread was warmed and parked for the next caller');
      // Taken at once: a second asker in the same turn is refused, not made to wait for another to start.
      assert.equal(lane.useIdle(undefined, async () => 'ran too'), null);
      assert.equal(await ran, 'ran: 0 read');
      const busy = gate();
      try {
        const working = lane.use(undefined, () => busy.opened);
        await new Promise((resolve) => setImmediate(resolve));
        assert.equal(lane.useIdle(undefined, async () => 'ran'), null, 'its one thread is at work, and none is started while one is');
        busy.open();
        await working;
      } finally {
        busy.open();
      }
    } finally {
      await lane.close();
    }
  });
});
