import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { receivedOutcome, sentOutcome } from '../../web/src/kinds/record/outcomeWords.ts';
import { NOT_QUEUED, describeReceivedOutcome, describeSentOutcome } from './outcomeWords.ts';
import { OUTCOMES } from './entry.ts';

describe('the words of what came of a message, one set for the page, the live view and a transcript', () => {
  it('say what came of a sent entry in the page\'s words, a reason after "not queued:"', () => {
    for (const isQueued of [true, false, null]) assert.equal(describeSentOutcome(isQueued, null), sentOutcome({ isQueued, reason: null }).words);
    const reason = 'recipient refuses inbound messages';
    assert.equal(sentOutcome({ isQueued: false, reason }).words, NOT_QUEUED);
    assert.equal(describeSentOutcome(false, reason), `${NOT_QUEUED} ${reason}`);
  });

  it('say what came of a received entry in the page\'s words', () => {
    for (const outcome of [...OUTCOMES, null]) assert.equal(describeReceivedOutcome(outcome), receivedOutcome({ outcome }).words);
  });
});
