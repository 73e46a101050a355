import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_AUTH, startDashboardProcess } from './dashboardProcess.ts';
import type { Row } from './report.ts';
import { prepareSacStore } from './sac.ts';
import { generateSpexHome } from './spex.ts';

// A search's answer over each kind of store and over all three at once: the 100k record, the spex
// phase's home of a million lines and the sac phase's store of a million entries, read by one
// command. Each search is timed beside the search budget (3 s): a search that reads everything
// it may is answered about then, and what it did beyond is the event loop's gathering and
// answering. One at a time, nothing else running.

/** The command's default budget: what a search that must read every text answers around. */
const BUDGET_MS = 3_000;
/** Each search asked this many times; the figure is the slowest. */
const ROUNDS = 3;

type Search = { what: string; query: string; source: 'record' | 'spex' | 'sac' | null };

const SEARCHES: Search[] = [
  { what: 'record: a common word', query: 'q=the', source: 'record' },
  { what: 'spex: a common word', query: 'q=lorem', source: 'spex' },
  { what: 'sac: a common word', query: 'q=the', source: 'sac' },
  { what: 'spex: a text found nowhere', query: 'q=zzqqxxnowhere', source: 'spex' },
  { what: 'all three stores: a common word', query: 'q=the', source: null },
  { what: 'all three stores: a text found nowhere', query: 'q=zzqqxxnowhere', source: null },
  { what: 'all three stores: (a+)+$', query: `q=${encodeURIComponent('(a+)+$')}&regex=1`, source: null },
];

type Sources = { sources: { id: string; kind: string; indexing: { state: string } }[] };

export async function measureStoreSearches(bin: string, recordDir: string, workDir: string, log: (line: string) => void): Promise<{ rows: Row[]; results: unknown }> {
  const home = generateSpexHome(workDir, log);
  const store = prepareSacStore(workDir, log);
  log('stores: a search over each kind of store, and over all three at once');
  const dashboard = await startDashboardProcess(bin, [recordDir, `--spex=${home}`, `--sac=${store}`]);
  try {
    const ask = async (path: string) => fetch(new URL(path, dashboard.url), { headers: BENCH_AUTH });
    let listed: Sources = { sources: [] };
    for (let waited = 0; waited < 300_000; waited += 500) {
      listed = (await (await ask('/api/sessions')).json()) as Sources;
      if (listed.sources.length === 3 && listed.sources.every((source) => source.indexing.state === 'ready')) break;
      await sleep(500);
    }
    const results: { what: string; ms: number[]; stoppedEarly: number }[] = [];
    const rows: Row[] = [];
    for (const search of SEARCHES) {
      const id = search.source === null ? null : listed.sources.find((source) => source.kind === search.source)?.id;
      const path = `/api/search?${search.query}${id === undefined || id === null ? '' : `&source=${encodeURIComponent(id)}`}`;
      const ms: number[] = [];
      let stoppedEarly = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        const response = await ask(path);
        const body = (await response.json()) as { stoppedEarly?: unknown };
        ms.push(performance.now() - started);
        if (body.stoppedEarly != null) stoppedEarly++;
      }
      results.push({ what: search.what, ms, stoppedEarly });
      const slowest = Math.max(...ms);
      rows.push({
        measure: `search, ${search.what} (slowest of ${ROUNDS})`,
        value: slowest,
        unit: 'ms',
        baseline: { value: BUDGET_MS, what: 'its budget' },
        ratio: slowest / BUDGET_MS,
        target: '≤ 10 s',
        met: slowest <= 10_000,
        note: `${ms.map((one) => Math.round(one)).join(', ')} ms; stopped early ${stoppedEarly} of ${ROUNDS}`,
      });
    }
    return { rows, results };
  } finally {
    await dashboard.stop();
  }
}
