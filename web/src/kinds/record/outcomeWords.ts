import type { MessageFactsWire } from '../../../../shared/wire/record.ts';
import { listUnknownFields } from '../../../../shared/record/entry.ts';
import { NOT_QUEUED, describeReceivedOutcome, describeSentOutcome } from '../../../../shared/record/outcomeWords.ts';

// What came of a message, in words that never overstate (rule.deliveryResult,
// rule.receiveOutcome). Nothing here says "delivered" or "read": the record cannot show either.
// The facts are the core's, as the wire carries them: no rule of the record is applied here.

type OutcomeTone = 'queued' | 'refused' | 'consumed' | 'rejected' | 'unknown';
export type OutcomeWords = { words: string; tone: OutcomeTone; title: string; reason: string | null };

export function sentOutcome({ isQueued, reason }: Pick<MessageFactsWire, 'isQueued' | 'reason'>): OutcomeWords {
  if (isQueued === true) {
    return {
      words: describeSentOutcome(true, null),
      tone: 'queued',
      title: 'The host put the message in its queue. Queued is not read, acted on or reported on.',
      reason: null,
    };
  }
  if (isQueued === false) {
    return {
      // The reason is shown on its own, after the words.
      words: reason === null ? describeSentOutcome(false, null) : NOT_QUEUED,
      tone: 'refused',
      title: 'The host did not queue this message. If the receiver refused it, the receiver has no entry of it.',
      reason,
    };
  }
  return { words: describeSentOutcome(null, null), tone: 'unknown', title: 'This sent entry holds no isQueued.', reason: null };
}

export function receivedOutcome({ outcome }: Pick<MessageFactsWire, 'outcome'>): OutcomeWords {
  const note = ' A receive event alone does not show that the message reached Claude.';
  switch (outcome) {
    case 'queued':
      return { words: describeReceivedOutcome('queued'), tone: 'queued', title: 'The receive hook passed it on to a queue.' + note, reason: null };
    case 'consumed':
      return { words: describeReceivedOutcome('consumed'), tone: 'consumed', title: "The receive hook's downstream consumed it." + note, reason: null };
    case 'rejected':
      return { words: describeReceivedOutcome('rejected'), tone: 'rejected', title: 'The receive hook was refused.' + note, reason: null };
    case 'unknown':
      return { words: describeReceivedOutcome('unknown'), tone: 'unknown', title: 'The host did not say what came of it.' + note, reason: null };
    case null:
      return { words: describeReceivedOutcome(null), tone: 'unknown', title: 'This received entry holds no outcome the reader knows.', reason: null };
  }
}

/** Fields a newer writer may have added; kept and shown raw, never interpreted. */
export function unknownFields(entry: Record<string, unknown>): string[] {
  return listUnknownFields(entry);
}
