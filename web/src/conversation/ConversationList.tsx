import { useEffect, type ReactNode } from 'react';
import { useTellFirstRowsShown } from './FirstRows.tsx';
import type { ConversationListState, RowPlace } from './useConversationList.ts';

// Every kind's conversation on one time axis: Sent on the left, Received on the right, what is
// neither across both, each row in its place in the conversation's order. Only the rows on screen
// are in the DOM. The kind gives what each row is and renders its item; the shell places it.

type Props = {
  list: ConversationListState;
  rowAt(index: number): RowPlace | undefined;
  /** The item of a row whose data is here; `selected` when the reader or a link chose it. */
  renderRow(index: number, selected: boolean): ReactNode;
  /** The columns' headings, with what the kind counts; null for one column (a room's flow). */
  headings: { sent: ReactNode; received: ReactNode } | null;
  /** What the list is, for a screen reader: "Entries in session order". */
  label: string;
  /** True until the conversation's first answer is here (or has failed). */
  busy: boolean;
  /** What is said between the headings and the rows (an empty conversation, a link not found). */
  children?: ReactNode;
  className?: string;
};

export function ConversationList({ list, rowAt, renderRow, headings, label, busy, children, className = '' }: Props) {
  const { scrollRef, virtualizer, visible, follow, selected, setSelected } = list;
  // The list of all conversations waits for the first rows (conversation/FirstRows.tsx).
  const tellFirstRows = useTellFirstRowsShown();
  const shown = visible.some((row) => rowAt(row.index) !== undefined) || (!busy && visible.length === 0);
  useEffect(() => {
    if (shown) tellFirstRows();
  }, [shown, tellFirstRows]);
  return (
    <div className={`conversation${headings === null ? ' conversation-flow' : ''} ${className}`}>
      {headings !== null && (
        <div className="conversation-columns">
          <span className="side-sent">{headings.sent}</span>
          <span className="side-received">{headings.received}</span>
        </div>
      )}
      {children}
      <div ref={scrollRef} className="conversation-scroll" tabIndex={0} role="feed" aria-label={label} aria-busy={busy}>
        <div className="conversation-inner" style={{ height: virtualizer.getTotalSize() }}>
          {visible.map((row) => {
            const place = rowAt(row.index);
            const isSelected = selected === row.index;
            return (
              <div
                key={row.key}
                data-index={row.index}
                ref={virtualizer.measureElement}
                className={`conversation-row${isSelected ? ' selected' : ''}`}
                style={{ transform: `translateY(${row.start}px)` }}
                onClick={() => setSelected(row.index)}
              >
                {place === undefined ? (
                  <div className="cell cell-span loading-row">loading…</div>
                ) : (
                  <div className={`cell cell-${place.column === 'both' ? 'span' : place.column}`} data-column={place.column}>
                    {renderRow(row.index, isSelected)}
                  </div>
                )}
              </div>
            );
          })}
        </div>
      </div>
      {follow.newBelow && (
        <button type="button" className="new-marker" onClick={follow.resume}>
          {follow.newCount} new ↓
        </button>
      )}
    </div>
  );
}
