import { SOURCE_KIND_NAMES } from '../../../../shared/wire/common.ts';
import { ENTRY_TYPES } from '../../../../shared/sac/entryHeader.ts';
import type { Kind } from '../kind.ts';
import { SacEntry } from './SacEntry.tsx';
import { SacHitRow } from './SacHitRow.tsx';
import { SacListRow } from './SacListRow.tsx';
import { SacReading } from './SacReading.tsx';
import { ROOMS } from './sacPaths.ts';
import { receivedShown } from './receivedShown.ts';
import { viewCode } from '../../router/viewCode.ts';

// set-agent-comm channels: rooms of append-only seat files. A seat is a conversation; a room is a
// view across seats, which only this kind has.

export const sacKind: Kind<'sac'> = {
  storeWords: 'the set-agent-comm store',
  name: SOURCE_KIND_NAMES.sac,
  conversationWords: 'a set-agent-comm seat',
  noun: 'seat',
  describeAsOther: (seat) => `its set-agent-comm seat ${seat.id}`,
  matches: (seat, needle) => seat.agent.toLowerCase().includes(needle) || (seat.session.state === 'known' && seat.session.session.toLowerCase().includes(needle)),
  ListRow: SacListRow,
  Lead: ({ conversation }) => <SacReading reading={conversation.reading} brief toOthers={conversation.counts.toOthers} />,
  tableName: (seat) => ({ id: seat.id, label: null }),
  describeDegraded: (seat) => seat.degraded.map((reason) => reason.words).join('\n'),
  receivedShown: (seat) => receivedShown(seat.counts, false),
  searchFilters: {
    words: 'set-agent-comm only',
    filters: [
      // An older Hungarian word counts as the type it stands for.
      { param: 'sac.type', label: 'type', type: 'choice', choices: ENTRY_TYPES.map((type) => [type, type] as const) },
      { param: 'sac.room', label: 'room', type: 'text', placeholder: 'its name, exactly' },
      { param: 'sac.writer', label: 'writer', type: 'text', placeholder: 'a seat, e.g. web-app#3f9c1a20' },
    ],
  },
  HitRow: SacHitRow,
  hitKey: (hit) => `${hit.source.id}/${hit.item}`,
  SessionItem: ({ item, source, conversation }) => <SacEntry item={item} source={source} seat={conversation} showRoom />,
  // sac's inbox shows a seat only what is for it (`forMe`); its page shows the rest on asking.
  addressedToOthers: (item) => item.addressing === 'to-others',
  ConversationView: viewCode(() => import('./SacSeatView.tsx')),
  views: {
    [ROOMS]: { View: viewCode(() => import('./SacRoomsView.tsx')), link: { label: 'Rooms', title: 'The rooms of the set-agent-comm store' } },
  },
};
