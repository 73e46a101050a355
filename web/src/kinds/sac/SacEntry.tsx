import type { SacFlowItem } from '../../../../shared/wire/sac.ts';
import { BACKLOG_WORDS } from '../../../../shared/sac/sacCursor.ts';
import { Link } from '../../router/Router.tsx';
import { conversationPath, itemPath, sourceViewPath } from '../../router/routes.ts';
import { CopyButton } from '../../text/CopyButton.tsx';
import { WrittenTime } from '../../time/WrittenTime.tsx';
import { ROOMS } from './sacPaths.ts';
import { TextActions, useClippedText } from '../../text/ClippedText.tsx';
import { VerbatimText } from '../../text/VerbatimText.tsx';
import { fetchItem, sacKeys } from './sacApi.ts';
// Its look goes with it: the page across the stores shows entries without a seat's or a room's page loaded.
import './sac.css';

// One stretch of a seat file in a flow: an entry (writer, type as written, to or everyone, re),
// stray text before a first header, or a write in progress or cut short. Texts verbatim.

const ADDRESSING: Record<string, string> = {
  'to-seat': 'to this seat',
  'to-agent': 'to its agent',
  'to-everyone': 'to everyone',
  'to-others': 'to others',
};

/** A gone seat's entry past sac's cursor: the Received heading's "backlog … not counted as unread", entry by entry. */
const BACKLOG_TITLE = 'past what sac’s cursor for this seat has handed it; its session is gone (derived), and sac counts what a gone session left unread as a backlog, never as unread';

const WAKE_RULE: Record<NonNullable<SacFlowItem['wakes']>['seats'][number]['rule'], string> = {
  addressed: 'addressed',
  re: 're: its entry',
  broadcast: 'a broadcast question or request',
  pair: 'a room of two',
};

/** Whom an entry wakes, as the core derived it by sac's rule: said as derived, "nobody" for a broadcast fact. */
function describeWakes(wakes: NonNullable<SacFlowItem['wakes']>): string {
  const rules = [...new Set(wakes.seats.map((seat) => seat.rule))];
  const woken =
    wakes.seats.length === 0
      ? 'wakes nobody (derived by sac’s rule)'
      : rules.length === 1
        ? `wakes ${wakes.seats.map((seat) => seat.seat).join(', ')} (derived by sac’s rule: ${WAKE_RULE[rules[0]!]})`
        : `wakes ${wakes.seats.map((seat) => `${seat.seat} (${WAKE_RULE[seat.rule]})`).join(', ')} (derived by sac’s rule)`;
  const quiet = wakes.quiet.map((seat) => `; not ${seat}: quiet`).join('');
  return `${woken}${quiet}${wakes.quietUnknown === null ? '' : '; whether a seat was quiet is unknown'}`;
}

/**
 * `selected`: the entry a link opened the flow at, or the reader chose. `address`: the entry's
 * own, which Copy link copies; by default its place in the seat's page (which shows entries to
 * others when asked), the room's page giving its flow's.
 */
type Props = { item: SacFlowItem; source: string; seat: string; showRoom?: boolean; selected?: boolean; address?: string };

export function SacEntry({ item, source, seat, showRoom = false, selected = false, address = itemPath(source, seat, item.item, item.addressing === 'to-others' ? 'others=1' : '') }: Props) {
  const kind = item.type === 'entry' ? (item.entryType ?? '') : item.type;
  return (
    <article
      className={`sac-entry sac-${item.type} ev-${item.evidence}${selected ? ' sac-target' : ''}`}
      data-item={item.item}
      aria-label={`${kind} by ${item.seat}`}
      aria-current={selected ? 'true' : undefined}
    >
      <header className="sac-entry-head">
        <Link to={conversationPath(source, item.seat)} className="sac-writer">
          {item.seat}
        </Link>
        {item.type === 'entry' && (
          <>
            <span className="sac-type" title={item.typeWord !== item.entryType ? `${item.typeWord}: sac's older word for ${item.entryType}` : undefined}>
              {item.typeWord}
              {item.typeWord !== item.entryType && <span className="sac-legacy"> ({item.entryType})</span>}
            </span>
            <span className="sac-to">→ {item.to.length === 0 ? 'everyone' : item.to.join(', ')}</span>
            <WrittenTime text={item.time ?? ''} at={item.at} className="sac-time" />
          </>
        )}
        {item.type === 'stray-text' && <span className="sac-type">stray text before the file’s first header</span>}
        {item.type === 'tail' && <span className="sac-type">{item.evidence === 'pending' ? 'being written' : 'a write cut short (torn)'}</span>}
        <CopyButton getText={() => new URL(address, window.location.origin).href} label={`Copy a link to entry ${item.item}`} children="Copy link" />
        {showRoom && (
          <Link to={sourceViewPath(source, ROOMS, item.room)} className="sac-room-link">
            #{item.room}
          </Link>
        )}
        {item.addressing !== null && <span className={`sac-addressing ${item.addressing}`}>{ADDRESSING[item.addressing]}</span>}
        {item.sacCursor !== null && (
          <span className={`sac-cursor ${item.sacCursor}`} title={item.sacCursor === 'backlog' ? BACKLOG_TITLE : 'what sac’s cursor for this seat marks; not what the session read'}>
            {item.sacCursor === 'backlog' ? BACKLOG_WORDS : `sac’s cursor: ${item.sacCursor}`}
          </span>
        )}
        {item.type === 'entry' && item.wakes === null && (
          <span className="sac-wakes" title="sac wakes once its append is done: a write not whole says nothing of whom it woke">
            whom it wakes: unknown, its write is not whole
          </span>
        )}
        {item.wakes !== null && (
          <span className="sac-wakes" title={`Who wakes whom is not in the files: derived by sac’s rule from the room’s members and declared quiet as read now${item.wakes.quietUnknown === null ? '' : ` (${item.wakes.quietUnknown})`}`}>
            {describeWakes(item.wakes)}
          </span>
        )}
        {item.sharesTime > 1 && <span className="sac-shares">{item.sharesTime} entries share this time</span>}
        {item.timeGoesBack && (
          <span className="sac-shares sac-file-order" title="sac history orders a room by each entry’s time; its file holds it after an entry dated later (relayed late, or a clock set back)">
            in its file after an entry dated later: placed by its time, as sac history orders it
          </span>
        )}
      </header>
      {item.re !== null && (
        <p className="sac-re">
          re <WrittenTime text={item.re.time} />:{' '}
          {item.re.state === 'unresolved'
            ? 'no entry of this room has that time'
            : item.re.entries.map((named) => (
                <Link key={named.item} to={sourceViewPath(source, ROOMS, item.room, named.item)} className="sac-re-link" title={`the entry of #${item.room} written at ${item.re!.time} by ${named.seat}`}>
                  {named.seat}
                </Link>
              ))}
          {item.re.state === 'ambiguous' && <span> ({item.re.entries.length} entries share this time)</span>}
        </p>
      )}
      {item.evidence !== 'parsed' && item.why !== null && <p className={`sac-why ev-${item.evidence}`}>{item.why}</p>}
      {item.text !== null && <SacText item={item} text={item.text} source={source} seat={seat} />}
    </article>
  );
}

/** An entry's body, or the bytes of stray text or a tail, as written; whole from the item's answer when the page cut it. */
function SacText({ item, text, source, seat }: { item: SacFlowItem; text: string; source: string; seat: string }) {
  const state = useClippedText({
    text,
    clippedBytes: item.textClipped?.bytes,
    large: item.large,
    queryKey: sacKeys.item(source, seat, item.item),
    fetchWhole: (signal) => fetchItem(source, seat, item.item, signal),
    textOf: (answer) => answer.item.text,
  });
  return (
    <>
      <VerbatimText text={state.showing} />
      <TextActions state={state} copyLabel="Copy the exact text" />
    </>
  );
}
