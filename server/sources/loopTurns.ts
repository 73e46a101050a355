import { setImmediate as nextIteration } from 'node:timers/promises';

// The event loop's time for requests' work, shared by all of them. Each iteration of the loop
// first reads what arrived (a request, a client taking bytes), then runs the work that waits for
// a turn. Work that arrives in an iteration whose turn is spent waits for the next one, so
// whatever arrives is read within one turn of work however many requests are under way: a
// refusal (server/http/admission.ts) is decided as its request is read, and is answered in that
// time rather than behind every page, item and export asked before it. Twenty clients at once
// otherwise put their pages, answers and exports' chunks in one iteration, hundreds of
// milliseconds before the next request was read.
//
// A turn ends once the loop has gone round since it began (a poll phase has read what arrived
// during it): the next step then begins a new turn at once. A request read by an idle loop, the
// first of all among them, is not held an iteration behind the work that came with it (at
// start-up, the first scan's slices).

/** How long the work of one iteration may go on before what arrived meanwhile is read. */
export const TURN_MS = 8;
/** What exports may take of a turn while answers wait: exports go on, pages never wait behind them. */
const EXPORT_SHARE_MS = TURN_MS / 4;

/**
 * Whose step it is, first served first: an answer made and waiting to be sent (`finish`: its
 * client has waited longest), a request's work (`answer`: a page, an item, a search's start),
 * an export's next chunk (`export`: it takes bytes a person waits for as a whole, not in a glance).
 */
export type Lane = 'finish' | 'answer' | 'export';
const LANES: readonly Lane[] = ['finish', 'answer', 'export'];

export type LoopTurns = {
  /**
   * Resolves at once while this iteration's turn has time left for the lane; else in a later
   * iteration, after the loop has read what arrived. Work calls it before each step (a page, a
   * chunk of an export): a step begun runs to its end, so steps are kept short.
   */
  take(lane: Lane): Promise<void>;
  /**
   * take's answer when it is "at once", without a promise: true, and the step is taken; false, and
   * the step must `take` (which then waits). An export of 100,000 items awaited a promise for each,
   * a tenth of its loop time, for turns that almost always had time left.
   */
  takeNow(lane: Lane): boolean;
  /** Steps that waited for a later iteration so far. */
  describe(): { deferred: number };
};

export function createLoopTurns(turnMs = TURN_MS): LoopTurns {
  /** Counts turns: a step begins a new one once the loop has gone round since the last began. */
  let turn = 0;
  let turnStarted = Number.NEGATIVE_INFINITY;
  /** Whether a poll phase of the loop has run since the turn began (no turn yet: it has). */
  let wentRound = true;
  let deferred = 0;
  const waiting: Record<Lane, number> = { finish: 0, answer: 0, export: 0 };
  /** Exports' time in this turn: each step from when it was let go to when it asked again. */
  let exportMs = 0;
  let exportStep: { at: number; turn: number } | null = null;

  const mayGo = (lane: Lane, now: number): boolean => {
    if (now - turnStarted >= turnMs) return false;
    if (lane === 'export') return exportMs < EXPORT_SHARE_MS || waiting.finish + waiting.answer === 0;
    return LANES.slice(0, LANES.indexOf(lane)).every((before) => waiting[before] === 0);
  };

  /**
   * `inCheckPhase`: begun by a step that waited, which resumes in a check phase; the next check
   * phase then comes after a poll phase. A step that did not wait may be in a poll phase, whose
   * check phase comes before the next poll: the loop has gone round only at the check phase after.
   */
  const beginTurn = (inCheckPhase: boolean) => {
    turn++;
    turnStarted = performance.now();
    exportMs = 0;
    wentRound = false;
    const roundTurn = turn;
    const goneRound = () => {
      if (turn === roundTurn) wentRound = true;
    };
    setImmediate(inCheckPhase ? goneRound : () => setImmediate(goneRound).unref()).unref();
  };

  /** Ends the export's last step, counting its time in this turn. */
  const endExportStep = (lane: Lane) => {
    if (lane === 'export' && exportStep !== null) {
      if (exportStep.turn === turn) exportMs += performance.now() - exportStep.at;
      exportStep = null;
    }
  };

  return {
    takeNow(lane) {
      if (wentRound) beginTurn(false);
      endExportStep(lane);
      const now = performance.now();
      if (!mayGo(lane, now)) return false;
      if (lane === 'export') exportStep = { at: now, turn };
      return true;
    },
    async take(lane) {
      if (wentRound) beginTurn(false);
      endExportStep(lane);
      while (!mayGo(lane, performance.now())) {
        deferred++;
        waiting[lane]++;
        // The next check phase of the loop; a new turn once a poll phase has read what arrived.
        await nextIteration();
        waiting[lane]--;
        if (wentRound) beginTurn(true);
      }
      if (lane === 'export') exportStep = { at: performance.now(), turn };
    },
    describe: () => ({ deferred }),
  };
}

/**
 * `items` made into answers a slice at a time, each slice a step taken in `lane`'s turn: a kind's
 * page reads a file (or a range of one) for each item, and a page of a hundred read in one step
 * held the loop past a turn, a refusal that arrived meanwhile waiting for all of it.
 */
export async function mapInSteps<T, R>(items: readonly T[], turns: LoopTurns, lane: Lane, sliceItems: number, make: (slice: readonly T[]) => R[]): Promise<R[]> {
  const made: R[] = [];
  for (let at = 0; at < items.length; at += sliceItems) {
    await turns.take(lane);
    made.push(...make(items.slice(at, at + sliceItems)));
  }
  return made;
}
