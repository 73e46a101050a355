import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { awaitLater } from './awaitLater.ts';

/** Runs `act` and gives the rejections nobody handled meanwhile (Node tells them after the microtasks). */
async function collectUnhandled(act: () => Promise<void>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    await act();
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  return unhandled;
}

describe('work begun ahead and awaited later', () => {
  it('that fails before it is awaited, and is never awaited, is no unhandled rejection', async () => {
    const unhandled = await collectUnhandled(async () => {
      awaitLater(Promise.reject(new Error('the client went away')));
    });
    assert.deepEqual(unhandled, []);
  });

  it('that fails before it is awaited still throws where it is awaited, with its own error', async () => {
    const gone = new Error('the client went away');
    const unhandled = await collectUnhandled(async () => {
      const ahead = awaitLater(Promise.reject(gone));
      await new Promise((resolve) => setTimeout(resolve, 10));
      await assert.rejects(ahead, (error) => error === gone);
    });
    assert.deepEqual(unhandled, []);
  });

  it('gives back what the work made', async () => {
    assert.equal(await awaitLater(Promise.resolve(42)), 42);
  });
});
