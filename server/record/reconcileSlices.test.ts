import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { NOTICE_GATHER_MS, createNoticeGatherer } from '../sources/noticeGatherer.ts';
import { createSlices, type SeenSinceSlice } from './reconcileSlices.ts';
import { createRecordStatus } from './recordStatus.ts';

// A scan's slices leave a change the watcher saw the time its notice is gathered in, so that the
// notice is not held behind the next slice; a pause that lasted that long leaves it no more.

function slicesWith(seenSinceSlice: SeenSinceSlice, noticesTold?: () => Promise<unknown>) {
  return createSlices({ initial: true, status: createRecordStatus(() => {}), setScanReading: () => {}, seenSinceSlice, noticeGatherMs: NOTICE_GATHER_MS, noticesTold });
}

/** A change the watcher saw and gathered, its notice not told yet, and the slices to pause after it. */
function changeSeenAndGathered() {
  const told: string[] = [];
  const notices = createNoticeGatherer<string>((keys) => told.push(...keys));
  const slices = slicesWith({ at: null }, () => notices.told());
  notices.gather('s1');
  slices.noteSeen();
  return { told, notices, slices };
}

describe("a scan's slices and the notices the watcher gathers meanwhile", () => {
  it('a change seen just before a pause: the next slice begins once its notice is told', async () => {
    const { told, notices, slices } = changeSeenAndGathered();
    await slices.pause(null);
    assert.deepEqual(told, ['s1'], 'told before the slice after the pause began');
    notices.close();
  });

  it('a change seen just before a pause that a busy thread stretched past its gathering time: the next slice begins once its notice is told, not at once', async () => {
    const { told, notices, slices } = changeSeenAndGathered();
    // The pause ends in a callback that holds the thread past the notice's gathering time, as a
    // loaded machine does: its time has passed, but its timer has not run, for the loop has had no
    // turn of its timers since.
    const busy = new Promise<void>((resolve) =>
      setImmediate(() => {
        const from = performance.now();
        while (performance.now() - from < NOTICE_GATHER_MS + 2);
        resolve();
      }),
    );
    await slices.pause(busy);
    assert.deepEqual(told, ['s1'], 'told before the slice after the pause began');
    notices.close();
  });

  it('a change seen longer ago than its gathering time, the pause spent waiting for a look: the next slice begins at once', async () => {
    const seen: SeenSinceSlice = { at: null };
    const slices = slicesWith(seen);
    slices.noteSeen();
    // The pause waits for a scan thread's look, which comes after the change's notice was due.
    const lookCame = sleep(NOTICE_GATHER_MS * 4);
    let turnOfTheLoop = false;
    const paused = slices.pause(lookCame.then(() => void setImmediate(() => (turnOfTheLoop = true))));
    await paused;
    assert.equal(turnOfTheLoop, false, 'the slice began before the event loop had another turn');
    assert.equal(seen.at, null, 'the change is left behind');
  });
});
