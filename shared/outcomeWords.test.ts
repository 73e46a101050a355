import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { receivedOutcome, sentOutcome } from '../web/src/timeline/outcomeWords.ts';
import { describeReceivedOutcome, describeSentOutcome } from './outcomeWords.ts';
import { OUTCOMES } from './record/entry.ts';

describe('the words of an exported transcript', () => {
  it('say what came of a sent entry in the page\'s words', () => {
    for (const isQueued of [true, false, null]) {
      for (const reason of [null, 'recipient refuses inbound messages']) {
        assert.equal(describeSentOutcome(isQueued, reason), sentOutcome({ isQueued, reason }).words);
      }
    }
  });

  it('say what came of a received entry in the page\'s words', () => {
    for (const outcome of [...OUTCOMES, null]) assert.equal(describeReceivedOutcome(outcome), receivedOutcome({ outcome }).words);
  });
});
