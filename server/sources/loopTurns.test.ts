import assert from 'node:assert/strict';
import { stat } from 'node:fs';
import { describe, it } from 'node:test';
import { TURN_MS, createLoopTurns, type LoopTurns } from './loopTurns.ts';

// The event loop's turns, as steps see them: counted, never timed. A step "holds the loop" as
// synchronous reads do.

function holdLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A step that spends its turn while something arrives, then the next step: whether it had arrived by then. */
async function seeArrivalAfterSpentTurn(turns: LoopTurns): Promise<boolean> {
  await turns.take('answer');
  let arrived = false;
  // A file system answer: delivered in the loop's poll phase, as a request's bytes are.
  stat(import.meta.filename, () => (arrived = true));
  holdLoop(2 * TURN_MS);
  await turns.take('answer');
  return arrived;
}

describe('turns of the event loop', () => {
  it('a step that finds the turn spent runs after the loop has read what arrived meanwhile', async () => {
    assert.equal(await seeArrivalAfterSpentTurn(createLoopTurns()), true, 'what arrived during the spent turn was read before the next step');
  });

  it('a turn begun as the loop reads what arrived (its poll phase, as a request read by an idle loop begins one) and spent there: the next step runs after the loop has read what arrived meanwhile', async () => {
    // Resumed in a file system answer's callback: the loop's poll phase.
    await new Promise<void>((resolve, reject) => stat(import.meta.filename, (error) => (error === null ? resolve() : reject(error))));
    assert.equal(await seeArrivalAfterSpentTurn(createLoopTurns()), true, 'what arrived during the spent turn was read before the next step');
  });

  it('the first step on a loop that has gone round since the last turn began goes on at once: a request after a quiet moment is not held an iteration', async () => {
    const turns = createLoopTurns();
    await turns.take('answer');
    assert.equal(turns.describe().deferred, 0, 'the first step of all waited for an iteration');
    // The turn is spent, and then the loop goes round: its poll phase has read what arrived.
    holdLoop(2 * TURN_MS);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    await turns.take('answer');
    await turns.take('finish');
    assert.equal(turns.describe().deferred, 0, 'a step after the loop went round waited for another iteration');
  });

  it('a step with time left in its turn goes on at once', async () => {
    const turns = createLoopTurns(60_000);
    await turns.take('answer');
    const before = turns.describe().deferred;
    await turns.take('answer');
    await turns.take('export');
    assert.equal(turns.describe().deferred, before, 'no step waited');
  });

  it('takeNow takes a step with time left in its turn at once, and says so; with its turn spent it takes none, and the step waits in take for a later one', async () => {
    const roomy = createLoopTurns(60_000);
    assert.equal(roomy.takeNow('export'), true);
    assert.equal(roomy.takeNow('answer'), true);
    assert.equal(roomy.describe().deferred, 0);
    const tight = createLoopTurns(1);
    assert.equal(tight.takeNow('export'), true);
    holdLoop(2);
    assert.equal(tight.takeNow('export'), false, 'a spent turn is not taken');
    await tight.take('export');
    assert.ok(tight.describe().deferred >= 1, 'the step waited for a later iteration');
  });

  it('while answers wait, exports take only their share of a turn: pages are not queued behind exports', async () => {
    const turns = createLoopTurns();
    let exporting = true;
    let exportSteps = 0;
    // Bounded, so that answers starved behind it still end the test with its count.
    const exported = (async () => {
      while (exporting && exportSteps < 2_000) {
        await turns.take('export');
        holdLoop(1);
        exportSteps++;
      }
    })();
    // The export runs alone for a while: it has every turn.
    while (exportSteps < 20) await new Promise((resolve) => setImmediate(resolve));
    const answers = 6;
    const stepsBefore = exportSteps;
    await Promise.all(
      Array.from({ length: answers }, async () => {
        await turns.take('answer');
        // A page that holds the loop for two turns.
        holdLoop(2 * TURN_MS);
      }),
    );
    const stepsBetween = exportSteps - stepsBefore;
    exporting = false;
    await exported;
    // Each answer is a turn of its own; in each, the export gets a quarter of a turn of 1 ms
    // steps (and the step under way), where with no lanes it would fill the turn (8 steps).
    assert.ok(stepsBetween <= answers * (TURN_MS / 4 + 2), `the export made ${stepsBetween} steps while ${answers} answers waited`);
  });
});
