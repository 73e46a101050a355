import { VerbatimText } from '../../text/VerbatimText.tsx';
import type { OutcomeWords } from './outcomeWords.ts';

/** What came of a message, in its words, with the host's reason verbatim where it gave one. */
export function OutcomeLabel({ outcome }: { outcome: OutcomeWords }) {
  return (
    <span className={`outcome outcome-${outcome.tone}`} title={outcome.title}>
      {outcome.words}
      {outcome.reason !== null && (
        <>
          {' '}
          <VerbatimText text={outcome.reason} inline className="outcome-reason" />
        </>
      )}
    </span>
  );
}
