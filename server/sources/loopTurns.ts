import { setImmediate as nextIteration } from 'node:timers/promises';

// The event loop's time for requests' work, shared by all of them. Each iteration of the loop
// first reads what arrived (a request, a client taking bytes), then runs the work that waits for
// a turn. Work that arrives in an iteration whose turn is spent waits for the next one, so
// whatever arrives is read within one turn of work however many requests are under way: a
// refusal (server/http/admission.ts) is decided as its request is read, and is answered in that
// time rather than behind every page, item and export asked before it. Twenty clients at once
// otherwise put their pages, answers and exports' chunks in one iteration, hundreds of
// milliseconds before the next request was read.

/** How long the work of one iteration may go on before what arrived meanwhile is read. */
export const TURN_MS = 8;

export type LoopTurns = {
  /**
   * Resolves at once while this iteration's turn has time left; else in a later iteration, after
   * the loop has read what arrived. Work calls it before each step (a page, a chunk of an
   * export): a step begun runs to its end, so steps are kept short.
   */
  take(): Promise<void>;
  /** Steps that waited for a later iteration so far. */
  describe(): { deferred: number };
};

export function createLoopTurns(turnMs = TURN_MS): LoopTurns {
  /** Counts turns: the first step to run in an iteration after waiting begins a new one. */
  let turn = 0;
  let turnStarted = Number.NEGATIVE_INFINITY;
  let deferred = 0;
  return {
    async take() {
      while (performance.now() - turnStarted >= turnMs) {
        deferred++;
        const waitedIn = turn;
        // The next check phase of the loop: after its poll phase has read what arrived.
        await nextIteration();
        if (turn === waitedIn) {
          turn++;
          turnStarted = performance.now();
        }
      }
    },
    describe: () => ({ deferred }),
  };
}
