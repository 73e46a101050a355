import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PENDING_WINDOW_MS, isPastPendingWindow, nextRetryDelay } from './evidence.ts';

// One rule for every kind of store: unfinished bytes (a file that does not parse yet, a line
// without its newline, a header without its body) are pending for one window from the reader's
// first look at them, on its own steady clock; never as long as a file's mtime says.

describe('the pending window, timed from the first look', () => {
  const WALL = 1_800_000_000_000;
  const STEADY = 5_000;
  const first = (changedAt: number) => ({ steadyAt: STEADY, wallAt: WALL, changedAt });

  it('what was first seen unfinished is pending within the window of that first look, and past it after', () => {
    assert.equal(isPastPendingWindow(first(WALL), STEADY + PENDING_WINDOW_MS - 1), false);
    assert.equal(isPastPendingWindow(first(WALL), STEADY + PENDING_WINDOW_MS), true);
  });

  it('a file already older than the window at the first look is past it at once', () => {
    assert.equal(isPastPendingWindow(first(WALL - 60_000), STEADY), true);
  });

  it('a file dated in the future tells nothing of its age: it has one window from the first look, not until its mtime comes round', () => {
    assert.equal(isPastPendingWindow(first(WALL + 3_600_000), STEADY + 1_000), false);
    assert.equal(isPastPendingWindow(first(WALL + 3_600_000), STEADY + PENDING_WINDOW_MS), true);
  });

  it('a reader given a shorter window keeps that one: past it at its end, at once for a file older than it, and its retries never wait past it', () => {
    const window = 3_000;
    assert.equal(isPastPendingWindow(first(WALL), STEADY + window - 1, window), false);
    assert.equal(isPastPendingWindow(first(WALL), STEADY + window, window), true);
    assert.equal(isPastPendingWindow(first(WALL - window), STEADY, window), true);
    assert.equal(isPastPendingWindow(first(WALL + 3_600_000), STEADY + window, window), true);
    assert.equal(nextRetryDelay(20, STEADY + window - 100, STEADY, window), 101);
  });
});
