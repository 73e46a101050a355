import { useMemo } from 'react';
import { ConversationList } from '../../conversation/ConversationList.tsx';
import { useItemIndex, usePagedConversation } from '../../conversation/usePages.ts';
import { isNotHere } from '../../api/client.ts';
import { conversationPath, itemPath } from '../../router/routes.ts';
import { Link, useRouter } from '../../router/Router.tsx';
import { sayHowMuchSentMayLack, sayWhatSentMayLack } from '../../../../shared/spex/sentUnknown.ts';
import { Folded, TALL_ENOUGH } from '../../app/Folded.tsx';
import { countOf } from '../../text/count.ts';
import type { ConversationViewProps } from '../kind.ts';
import type { SpexSessionResponse } from '../../../../shared/wire/spex.ts';
import { ParamsNotApplied } from '../../conversation/ParamsNotApplied.tsx';
import { MarksLegend } from '../../conversation/marks.tsx';
import { SpexDegradedBanner, SpexHeader } from './SpexHeader.tsx';
import { SpexItemView, columnOf } from './SpexItemView.tsx';
import { spexPages } from './spexApi.ts';
import './spex.css';

// A spex session's Sent | Received on the shell's time axis: the `sent` lines of its own log in
// Received, the `sent` lines of other logs whose `from` is its id in Sent (each from the
// receiver's log), its declarations and the lines that are not events across both, each in its
// place. The header says what session.json holds now, labelled as current, never as history.

export default function SpexSessionView({ source, id: sessionId, item, query }: ConversationViewProps) {
  const { navigate } = useRouter();
  const paged = useMemo(() => spexPages(source, sessionId), [source, sessionId]);
  const target = useItemIndex(paged, item);
  const targetIndex = typeof target.data === 'number' ? target.data : target.isPending && target.failureCount === 0 ? undefined : null;
  const conversation = usePagedConversation(paged, columnOf, {
    target: item === null ? null : { key: item, index: targetIndex },
    onSelectItem: (key) => navigate(itemPath(source, sessionId, key), { replace: true }),
  });
  const data = conversation.latest;
  if (data === null) {
    return (
      <main className="view" aria-label={`spex session ${sessionId}`}>
        {conversation.error !== null ? (
          <p className="notice warn">
            {isNotHere(conversation.error) ? (
              <>
                No spex session <code>{sessionId}</code> in this spex home ({source}).
              </>
            ) : (
              conversation.error.message
            )}
          </p>
        ) : (
          <p className="muted">loading…</p>
        )}
      </main>
    );
  }
  const { session } = data;
  // A reason's lines are the session's own log's: a `sent` item is a line of another log.
  const keyOfLine = (line: number) => conversation.fetched().find((one) => one.type !== 'sent' && one.line === line)?.key;
  const legend = (
    <MarksLegend
      names={[
        // Marked where the server says a card is one event seen from two sides (`twoSides`, every Sent card).
        ...(conversation.fetched().some((one) => one.type === 'sent' || (one.type === 'received' && one.twoSides)) ? (['two-sides'] as const) : []),
        ...(session.counts.damaged + session.counts.invalid + session.counts.torn > 0 ? (['unknown'] as const) : []),
      ]}
    />
  );
  return (
    <main className="view conversation-view spex-view" aria-label={`spex session ${sessionId}`}>
      <SpexHeader data={data} />
      <SpexDegradedBanner session={session} keyOfLine={keyOfLine} />
      <ParamsNotApplied query={query} reads={[]} applied="" />
      {data.sentUnknown === null ? (
        legend
      ) : (
        // On the marks' line, as small: a line of its own cost a laptop's rows their share of the view.
        <div className="spex-above-rows">
          {legend}
          <SentUnknownNote source={source} found={data.sentUnknown} />
        </div>
      )}
      {conversation.error !== null && <p className="notice error">Could not fetch the session again: {conversation.error.message}. What is shown is what was last fetched.</p>}
      {item !== null && target.data === null && (
        <p className="notice warn" role="status">
          Item <code>{item}</code> is not in this session.
        </p>
      )}
      {data.strays.length > 0 && (
        <section className="spex-strays" aria-label="Files not read">
          <h2>In the session's folder, not read as its log</h2>
          <ul>
            {data.strays.map((stray) => (
              <li key={stray.name}>
                <code>{stray.name}</code>: {stray.why}
              </li>
            ))}
          </ul>
        </section>
      )}
      <ConversationList
        list={conversation.list}
        rowAt={conversation.rowAt}
        busy={false}
        label="Lines in time order"
        headings={{
          sent: `Sent (${countOf(session.counts.sent, 'message')}, from the receivers' logs)`,
          received: `Received (${countOf(session.counts.received, 'message')}: ${session.counts.fromPerson} from a person, ${session.counts.fromPeers} from sessions or other senders)`,
        }}
        renderRow={(index, selected) => <SpexItemView source={source} sessionId={sessionId} item={conversation.itemAt(index)!} selected={selected} />}
      >
        {conversation.total === 0 && <p className="notice">No line of this session's log has been read yet, and no other log names it as a sender.</p>}
      </ConversationList>
    </main>
  );
}

/**
 * What the session's Sent may lack (the server's sentUnknown): where the window is short, folded
 * under what it says in a few words, as the facts are, so the rows keep the view and the summary
 * still says it.
 */
function SentUnknownNote({ source, found }: { source: string; found: NonNullable<SpexSessionResponse['sentUnknown']> }) {
  return (
    <div className="notice warn spex-sent-unknown" role="status">
      <Folded
        className="sent-unknown-fold"
        openFrom={TALL_ENOUGH}
        keptAs="spex-sent-unknown"
        summary={
          <>
            <strong>What it sent may be more:</strong> {sayHowMuchSentMayLack(found)}
          </>
        }
      >
        <p>
          {sayWhatSentMayLack(found)} Those logs:{' '}
          {found.logs.map((log, index) => {
            // At its first line not read, where there is one: where that log says nothing readable.
            const first = found.firstLines[index] ?? null;
            return (
              <span key={log}>
                {index > 0 && ', '}
                <Link to={first === null ? conversationPath(source, log) : itemPath(source, log, first)}>
                  <code>{log}</code>
                </Link>
              </span>
            );
          })}
          {found.moreLogs > 0 ? ` and ${found.moreLogs} more` : ''}.
        </p>
      </Folded>
    </div>
  );
}
