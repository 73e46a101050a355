import { SOURCE_KIND_NAMES } from '../../../../shared/wire/common.ts';
import { OUTCOMES } from '../../../../shared/record/entry.ts';
import type { Kind } from '../kind.ts';
import { RecordHitRow } from './RecordHitRow.tsx';
import { ChainElsewhereRow, RecordListRow } from './RecordListRow.tsx';
import { SessionTable } from './SessionTable.tsx';
import { describeSessionDegraded } from './reasonWords.ts';
import { shortId } from '../../sessions/names.ts';
import { RecordSessionItem } from './RecordSessionItem.tsx';
import { REFUSED_WORDS, RefusedCounts } from './RefusedCounts.tsx';
import { viewCode } from '../../router/viewCode.ts';

// The record: one JSON file per entry, a folder per session. What the shell shows of it.

export const recordKind: Kind<'record'> = {
  storeWords: 'the record directory',
  name: SOURCE_KIND_NAMES.record,
  conversationWords: 'the record',
  noun: 'session',
  alone: {
    title: 'The record',
    lede: 'What each session sent and received, as its plugin saw it. The record is observational: a gap or a damaged file is unknown, never “nothing was sent”, and no received entry is joined to a sent one. Pick a session in the list of sessions, or below.',
    degraded: 'recording',
  },
  describeAsOther: () => 'its record session',
  matches: (session, needle) =>
    session.cwds.some((cwd) => cwd.toLowerCase().includes(needle)) ||
    (session.chain !== null && (session.chain.brief.toLowerCase().includes(needle) || session.chain.parent.toLowerCase().includes(needle))),
  parentOf: (session) => session.chain?.parent ?? null,
  ListRow: RecordListRow,
  Lead: ({ conversation }) => <RefusedCounts session={conversation} />,
  refusedWords: REFUSED_WORDS,
  ElsewhereRow: ChainElsewhereRow,
  tableName: (session) => ({ id: shortId(session.sessionId), label: null }),
  describeDegraded: describeSessionDegraded,
  searchFilters: {
    words: 'the record only',
    filters: [
      {
        param: 'record.outcome',
        label: 'outcome',
        type: 'choice',
        // A queued one is not read or acted on.
        choices: OUTCOMES.map((outcome) => [outcome, outcome === 'queued' ? 'queued (neither read nor acted on)' : outcome] as const),
      },
      { param: 'record.refused', label: 'not queued by the host only', type: 'check' },
    ],
  },
  HitRow: RecordHitRow,
  hitKey: (hit) => `${hit.source.id}/${hit.sessionId}/${hit.file}`,
  // A message parsed with no text to show: the plugin recorded it in metadata mode.
  liveNoText: (item) => (item.kind === 'message' && item.evidence === 'parsed' ? 'text withheld' : null),
  SessionItem: RecordSessionItem,
  ConversationView: viewCode(() => import('./RecordSessionView.tsx')),
  Table: ({ conversations, caption }) => <SessionTable sessions={conversations} caption={caption} />,
  OverviewSection: ({ conversations }) => {
    const degraded = conversations.filter((session) => session.degraded.length > 0);
    return degraded.length > 0 ? <SessionTable sessions={degraded} caption="Sessions whose record is incomplete" /> : null;
  },
};
