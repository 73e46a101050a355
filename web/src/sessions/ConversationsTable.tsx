import { memo, useMemo } from 'react';
import type { ConversationSummary } from '../../../shared/wire/kinds.ts';
import { Link } from '../router/Router.tsx';
import { projectPath } from '../router/routes.ts';
import { DegradedReasons } from './DegradedReasons.tsx';
import { Time } from '../time/Time.tsx';
import { kindOf } from '../kinds/registry.ts';
import { SourceBadge } from '../kinds/SourceBadge.tsx';
import { pathOf } from './conversations.ts';
import { projectName } from './names.ts';
import { useRowsShown } from './useRowsShown.tsx';
import { useHeldOrder } from './useHeldOrder.tsx';

// Conversations of every store at a glance: record sessions, spex sessions and set-agent-comm
// seats, each saying which store it is from and opening its own view. Sorted as the reader asks
// (in the address): latest activity, messages sent or received, degraded first. Its order holds
// while the reader is on it (useHeldOrder).

const CONVERSATION_SORTS = ['last', 'sent', 'received', 'degraded'] as const;
export type ConversationSort = (typeof CONVERSATION_SORTS)[number];

const SORT_WORDS: Record<ConversationSort, string> = {
  last: 'latest activity first',
  sent: 'most sent first',
  received: 'most received first',
  degraded: 'degraded first',
};

export function readConversationSort(value: string | null): ConversationSort {
  return CONVERSATION_SORTS.find((sort) => sort === value) ?? 'last';
}

function byLastAt(a: ConversationSummary, b: ConversationSummary): number {
  // ISO instants compare as strings; a conversation with no time yet goes last.
  return (b.lastAt ?? '').localeCompare(a.lastAt ?? '');
}

function sortConversations(list: readonly ConversationSummary[], sort: ConversationSort): ConversationSummary[] {
  const sorted = [...list];
  switch (sort) {
    case 'last':
      return sorted.sort(byLastAt);
    case 'sent':
      return sorted.sort((a, b) => b.counts.sent - a.counts.sent || byLastAt(a, b));
    case 'received':
      return sorted.sort((a, b) => receivedOf(b) - receivedOf(a) || byLastAt(a, b));
    case 'degraded':
      return sorted.sort((a, b) => b.degraded.length - a.degraded.length || byLastAt(a, b));
  }
}

/** Its received entries as its page shows them at first (a set-agent-comm seat's to others apart). */
function receivedOf(conversation: ConversationSummary): number {
  return kindOf(conversation).receivedShown?.(conversation) ?? conversation.counts.received;
}

/** `counted`: what the table lists, counted ("All 12 conversations"); its order follows. */
type Props = { conversations: readonly ConversationSummary[]; counted: string; sort: ConversationSort; onSort(sort: ConversationSort): void };

const conversationKey = (conversation: ConversationSummary) => `${conversation.source.id}\u0000${conversation.id}`;

export function ConversationsTable({ conversations, counted, sort, onSort }: Props) {
  const fresh = useMemo(() => sortConversations(conversations, sort), [conversations, sort]);
  const { rows: sorted, holdOn, resort } = useHeldOrder(fresh, conversationKey, sort);
  const { shown, more } = useRowsShown(sorted.length);
  const header = (key: ConversationSort, words: string) => (
    <button type="button" aria-pressed={sort === key} onClick={() => onSort(key)} title={`Sort: ${SORT_WORDS[key]}`}>
      {words}
    </button>
  );
  return (
    <>
      <div className="held-table" {...holdOn}>
        <div className="table-scroll">
          <table className="conversation-table">
            <caption>
              {counted}, {SORT_WORDS[sort]}
            </caption>
            <thead>
              <tr>
                <th scope="col">Store</th>
                <th scope="col">Conversation</th>
                <th scope="col">Project</th>
                <th scope="col" aria-sort={sort === 'last' ? 'descending' : undefined}>
                  {header('last', 'Last activity')}
                </th>
                <th scope="col" aria-sort={sort === 'sent' ? 'descending' : undefined}>
                  {header('sent', 'Sent')}
                </th>
                <th scope="col" aria-sort={sort === 'received' ? 'descending' : undefined}>
                  {header('received', 'Received')}
                </th>
                <th scope="col" aria-sort={sort === 'degraded' ? 'descending' : undefined}>
                  {header('degraded', 'Degraded')}
                </th>
              </tr>
            </thead>
            <tbody>
              {sorted.slice(0, shown).map((conversation) => (
                <ConversationRow key={conversationKey(conversation)} conversation={conversation} />
              ))}
            </tbody>
          </table>
        </div>
        {resort}
      </div>
      {more}
    </>
  );
}

/** A notice replaces one conversation's summary and keeps the others: those rows stay. */
const ConversationRow = memo(function ConversationRow({ conversation }: { conversation: ConversationSummary }) {
  const kind = kindOf(conversation);
  const { id, label } = kind.tableName(conversation);
  return (
    <tr data-conversation={`${conversation.source.id}/${conversation.id}`}>
      <td>
        <SourceBadge source={conversation.source} />
      </td>
      <td>
        <Link to={pathOf(conversation)} title={conversation.id}>
          <code>{id}</code>
        </Link>
        {label !== null && <span className="muted"> {label}</span>}
      </td>
      <td>
        <Link to={projectPath(conversation.cwd)} title={conversation.cwd ?? undefined}>
          {projectName(conversation.cwd)}
        </Link>
      </td>
      <td>{conversation.lastAt !== null ? <Time at={conversation.lastAt} /> : '—'}</td>
      <td className="num">{conversation.counts.sent.toLocaleString('en')}</td>
      <td className="num">{receivedOf(conversation).toLocaleString('en')}</td>
      <td>
        {conversation.degraded.length === 0 ? (
          <span className="muted">no</span>
        ) : (
          <DegradedReasons count={conversation.degraded.length} words={kind.describeDegraded(conversation)} />
        )}
      </td>
    </tr>
  );
});
