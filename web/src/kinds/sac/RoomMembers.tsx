import type { SacRoomMember } from '../../../../shared/wire/sac.ts';
import { FoldedFacts } from '../../conversation/FoldedFacts.tsx';
import { Link } from '../../router/Router.tsx';
import { countOf } from '../../text/count.ts';
import { conversationPath } from '../../router/routes.ts';
import { WrittenTime } from '../../time/WrittenTime.tsx';
import { LivenessBadge } from './LivenessBadge.tsx';
import { SacReading } from './SacReading.tsx';

// A room's roster, as `sac admin` shows who is subscribed to a room and whether they are reading:
// every member, each with its liveness (derived), a declared quiet and focus, and how far sac's
// cursor has it read. A gone seat is drawn as gone, its backlog said apart and never as unread.
// Folded under a summary where the window is short, as a seat's facts are: a roster of six took
// the room's header box at 1,280 × 800 and left its flow some 330 px.

const BECAUSE: Record<SacRoomMember['because'][number], string> = {
  members: 'members.json',
  registry: 'the registry',
  pair: 'rooms.json’s pair',
  file: 'a seat file here',
};

export function RoomMembers({ source, members }: { source: string; members: readonly SacRoomMember[] }) {
  return (
    <FoldedFacts about="room" summary={describeMembers(members)}>
      <section className="sac-members" aria-label="Members">
        <ul>
          {members.map((member) => (
            <li key={member.seat} aria-label={member.seat} className={`sac-member live-${member.liveness.word}`}>
              <Link to={conversationPath(source, member.seat)}>{member.seat}</Link>{' '}
              <LivenessBadge liveness={member.liveness} />{' '}
              <SacReading reading={member.reading} />
              {member.presence.state === 'quiet' && ' '}
              {member.presence.state === 'quiet' && (
                <span className="badge sac-quiet" title="declared quiet (sac quiet): not woken; it still reads everything">
                  quiet{member.presence.until !== null && <> until <WrittenTime text={member.presence.until} /></>}
                </span>
              )}
              {member.left && <span className="muted"> · left (sac part)</span>}
              {member.file === 'none' && <span className="muted"> · no file here: never wrote</span>}
              {member.file === 'empty' && <span className="muted"> · an empty file here: joined and never wrote</span>}
              {member.focus.state === 'declared' && (
                <span className="sac-focus">
                  {' · '}on: {member.focus.text}
                  {member.focus.files.length > 0 && <> [{member.focus.files.join(', ')}]</>}
                  {member.focus.freshness === 'stale' && ' (stale)'}
                </span>
              )}
              <span className="muted"> · a member by: {member.because.map((why) => BECAUSE[why]).join(', ')}</span>
            </li>
          ))}
        </ul>
      </section>
    </FoldedFacts>
  );
}

/** The roster in a few words, for its summary: how many members, by their liveness (derived), and how many are quiet. */
function describeMembers(members: readonly SacRoomMember[]): string {
  const by = (word: SacRoomMember['liveness']['word']) => members.filter((member) => member.liveness.word === word).length;
  const words = (['live', 'gone', 'unknown'] as const).filter((word) => by(word) > 0).map((word) => `${by(word)} ${word}`);
  const quiet = members.filter((member) => member.presence.state === 'quiet').length;
  return `${countOf(members.length, 'member')}${words.length > 0 ? `: ${words.join(', ')} (derived)` : ''}${quiet > 0 ? ` · ${quiet} quiet` : ''}`;
}
