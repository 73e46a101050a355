import assert from 'node:assert/strict';
import { readlinkSync } from 'node:fs';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { readThreadNiceness } from '../test/processes.ts';
import { startBackgroundThread } from './threadPriority.ts';

/** A running thread's nice value. */
function readNiceness(threadId: number): number {
  return readThreadNiceness(threadId)!;
}

test('a thread started in the background runs at a lower priority than the main thread from its first instruction, and the main thread keeps its own', async () => {
  // Its first instruction reads its own niceness: before any module of its loads.
  const worker = startBackgroundThread(
    `const { readFileSync, readlinkSync } = require('node:fs');
     const stat = readFileSync('/proc/thread-self/stat', 'utf8');
     const niceness = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
     const { parentPort } = require('node:worker_threads');
     parentPort.postMessage({ niceness, threadId: Number(readlinkSync('/proc/thread-self').split('/').at(-1)) });
     parentPort.once('message', () => process.exit(0));`,
    { eval: true },
  );
  try {
    const { niceness, threadId } = await new Promise<{ niceness: number; threadId: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const mainThreadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    assert.ok(niceness > readNiceness(mainThreadId), `the thread's niceness at its first instruction, ${niceness}, is above the main thread's ${readNiceness(mainThreadId)}`);
    assert.equal(readNiceness(threadId), niceness, 'and stays so');
  } finally {
    worker.postMessage('done');
    await worker.terminate();
  }
});

test('a thread that yields to the main thread runs at a lower priority than it, and the main thread keeps its own', async () => {
  const module = new URL('./threadPriority.ts', import.meta.url).href;
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     import(${JSON.stringify(module)}).then(({ yieldToMainThread }) => {
       yieldToMainThread();
       parentPort.postMessage(Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').at(-1)));
       parentPort.once('message', () => process.exit(0));
     });`,
    { eval: true },
  );
  try {
    const threadId = await new Promise<number>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const mainThreadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    assert.ok(readNiceness(threadId) > readNiceness(mainThreadId), `the thread's niceness ${readNiceness(threadId)} is above the main thread's ${readNiceness(mainThreadId)}`);
  } finally {
    worker.postMessage('done');
    await worker.terminate();
  }
});
