import { SOURCE_KIND_NAMES } from '../../../../shared/wire/common.ts';
import type { Kind } from '../kind.ts';
import { shortId } from '../../sessions/names.ts';
import { writeCount } from '../../text/count.ts';
import { SpexHitRow } from './SpexHitRow.tsx';
import { SpexListRow, SpexNow } from './SpexListRow.tsx';
import { SpexItemView } from './SpexItemView.tsx';
import { viewCode } from '../../router/viewCode.ts';

// spex session timelines: per session, an append-only log of what was addressed to it and of its
// status declarations.

export const spexKind: Kind<'spex'> = {
  storeWords: 'the spex home',
  name: SOURCE_KIND_NAMES.spex,
  conversationWords: 'a spex session timeline',
  noun: 'session',
  describeAsOther: () => 'its spex session',
  matches: (session, needle) => [session.title, session.name, session.branch].some((text) => text?.toLowerCase().includes(needle) === true),
  ListRow: SpexListRow,
  Lead: ({ conversation }) => <SpexNow session={conversation} />,
  tableName: (session) => ({ id: shortId(session.id), label: [session.named.title, session.named.branch].filter((part) => part !== null).join(' · ') || null }),
  describeDegraded: (session) => session.degraded.map((reason) => reason.words).join('\n'),
  searchFilters: {
    words: 'spex only',
    filters: [{ param: 'spex.person', label: 'from a person only', title: 'spex messages whose from is null: a person’s words, not a peer session’s', type: 'check' }],
  },
  HitRow: SpexHitRow,
  hitKey: (hit) => `${hit.source.id}/${hit.key}`,
  hitsNote: (hits) => {
    // One line between two sessions of a home, found from both its sides: two hits, by the line the server names.
    const seen = new Map<string, number>();
    for (const hit of hits) {
      const line = `${hit.source.id} ${hit.line}`;
      seen.set(line, (seen.get(line) ?? 0) + 1);
    }
    const twice = [...seen.values()].filter((count) => count > 1).length;
    if (twice === 0) return null;
    const lines = twice === 1 ? 'Two of them are one spex line, found' : `${writeCount(twice * 2)} of them are ${writeCount(twice)} spex lines, each found`;
    return `${lines} from both its sides: a hit under its receiver and one under its sender, each marked two sides.`;
  },
  SessionItem: ({ item, source, conversation }) => <SpexItemView item={item} source={source} sessionId={conversation} selected={false} />,
  ConversationView: viewCode(() => import('./SpexSessionView.tsx')),
};
