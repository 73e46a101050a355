import { lazy } from 'react';
import type { Kind } from '../kind.ts';
import { SacHitRow } from './SacHitRow.tsx';
import { SacListRow } from './SacListRow.tsx';
import { ROOMS } from './sacPaths.ts';

// set-agent-comm channels: rooms of append-only seat files. A seat is a conversation; a room is a
// view across seats, which only this kind has.

export const sacKind: Kind<'sac'> = {
  storeWords: 'the set-agent-comm store',
  name: 'set-agent-comm',
  conversationWords: 'a set-agent-comm seat',
  noun: 'seat',
  describeAsOther: (seat) => `its set-agent-comm seat ${seat.id}`,
  sessionOf: (seat) => (seat.session.state === 'known' ? seat.session.session : null),
  matches: (seat, needle) => seat.agent.toLowerCase().includes(needle) || (seat.session.state === 'known' && seat.session.session.toLowerCase().includes(needle)),
  ListRow: SacListRow,
  tableName: (seat) => ({ id: seat.id, label: null }),
  describeDegraded: (seat) => seat.degraded.map((reason) => reason.words).join('\n'),
  HitRow: SacHitRow,
  hitKey: (hit) => `${hit.source.id}/${hit.item}`,
  ConversationView: lazy(() => import('./SacSeatView.tsx')),
  views: {
    [ROOMS]: { View: lazy(() => import('./SacRoomsView.tsx')), link: { label: 'Rooms', title: 'The rooms of the set-agent-comm store' } },
  },
};
