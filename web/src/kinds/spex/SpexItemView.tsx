import type { ReactNode } from 'react';
import type { SpexItem, SpexSender } from '../../../../shared/wire/spex.ts';
import { LINE_NUMBERS_WORDS } from '../../../../shared/spex/privateData.ts';
import type { Column } from '../../conversation/useConversationList.ts';
import { Mark } from '../../conversation/marks.tsx';
import { Link } from '../../router/Router.tsx';
import { itemPath } from '../../router/routes.ts';
import { CopyButton } from '../../text/CopyButton.tsx';
// Its look goes with it: the page across the stores shows items without a spex session's page loaded.
import './spex.css';
import { countOf } from '../../text/count.ts';
import { VerbatimText } from '../../text/VerbatimText.tsx';
import { Time } from '../../time/Time.tsx';
import { SpexSessionRef, describeNamed } from './SpexSessionRef.tsx';
import { SpexText, messageTextOf, noteOf, rawOf } from './SpexText.tsx';
import { PERSON_WORDS } from '../../../../shared/peerMatch.ts';

// One item of a spex session in its column: what it received (its own log's `sent` lines) on the
// right, what it sent (other logs' `sent` lines whose `from` is its id) on the left, declarations
// and lines that are not events across both, in their place.

type ItemProps = { source: string; sessionId: string; item: SpexItem; selected: boolean };

export function columnOf(item: SpexItem): Column {
  return item.type === 'sent' || item.type === 'received' ? item.type : 'both';
}

/** Who sent a received message, in words: a person, a session of this home, or the name as spex wrote it, quoted. */
function senderLabel(from: SpexSender): string {
  return from.by === 'person' ? PERSON_WORDS : from.by === 'session' ? `session ${describeNamed(from.sessionId, from.named)}` : `“${from.as}”, as spex wrote it`;
}

export function SpexItemView(props: ItemProps) {
  switch (props.item.type) {
    case 'received':
      return <ReceivedItem {...props} item={props.item} />;
    case 'sent':
      return <SentItem {...props} item={props.item} />;
    case 'declaration':
      return <DeclarationItem {...props} item={props.item} />;
    case 'unknown-kind':
      return <UnknownKindItem {...props} item={props.item} />;
    case 'evidence':
      return <EvidenceItem {...props} item={props.item} />;
  }
}

type Of<T extends SpexItem['type']> = Omit<ItemProps, 'item'> & { item: Extract<SpexItem, { type: T }> };

function ReceivedItem({ source, sessionId, item, selected }: Of<'received'>) {
  const { from } = item;
  return (
    <Article item={item} selected={selected} className="entry entry-received" label={`Received from ${senderLabel(from)}`}>
      <header className="entry-head">
        <span className="peer-dir">from</span>{' '}
        {from.by === 'person' && <strong className="spex-person" title="from: null — a person, not a session">{PERSON_WORDS}</strong>}
        {from.by === 'session' && <SpexSessionRef source={source} sessionId={from.sessionId} named={from.named} title="A session of this spex home: its view" />}
        {from.by === 'other' && (
          <span className="peer-as" title="from, exactly as spex wrote it: neither a person nor a session of this home">
            {from.as === '' ? <em>(an empty string)</em> : <VerbatimText text={from.as} inline />} <span className="muted">(as written)</span>
          </span>
        )}
        {' '}
        {item.replyVia !== null && (
          <span className="badge" title="replyVia, as spex stored it: how the sender asked to be answered">
            reply via <VerbatimText text={item.replyVia} inline />
          </span>
        )}
        {' '}
        <ItemPlace source={source} sessionId={sessionId} item={item} />
      </header>
      {item.twoSides && (
        <p className="correlation">
          The same event is in that session's Sent column <Mark name="two-sides" />
        </p>
      )}
      <MessageBody source={source} sessionId={sessionId} item={item} />
    </Article>
  );
}

function SentItem({ source, sessionId, item, selected }: Of<'sent'>) {
  return (
    <Article item={item} selected={selected} className="entry entry-sent" label={`Sent to session ${describeNamed(item.receiver, item.receiverNamed)}`}>
      <header className="entry-head">
        <span className="peer-dir">to</span> <SpexSessionRef source={source} sessionId={item.receiver} named={item.receiverNamed} title="The session whose log holds this line" />
        {' '}
        {item.replyVia !== null && (
          <span className="badge" title="replyVia, as spex stored it: how this session asked to be answered">
            reply via <VerbatimText text={item.replyVia} inline />
          </span>
        )}
        {' '}
        <ItemPlace source={source} sessionId={sessionId} item={item} where="the receiver's log" />
      </header>
      <p className="correlation">
        From the receiver's log: the line there whose <code>from</code> is this session's id <Mark name="two-sides" />
      </p>
      <MessageBody source={source} sessionId={sessionId} item={item} />
    </Article>
  );
}

function MessageBody({ source, sessionId, item }: { source: string; sessionId: string; item: Extract<SpexItem, { type: 'sent' | 'received' }> }) {
  return (
    <>
      <Changed now={item.now} />
      {item.text !== null ? (
        <SpexText
          source={source}
          sessionId={sessionId}
          itemKey={item.key}
          text={item.text}
          clippedBytes={item.textClipped?.bytes}
          large={item.large}
          hintAt={item.hintAt}
          textOf={messageTextOf}
          copyLabel="Copy the exact text"
        />
      ) : (
        <p className="entry-note warn">{item.large === undefined ? 'Its text is not shown: the line no longer holds it.' : 'Its text is not shown: it does not begin within the head of the line read here. The whole line is in the downloads.'}</p>
      )}
    </>
  );
}

function DeclarationItem({ source, sessionId, item, selected }: Of<'declaration'>) {
  return (
    <Article item={item} selected={selected} className="record-row spex-declaration" label={`Declaration: ${item.word}`}>
      <header className="entry-head">
        <span className="muted">declared</span>{' '}
        <strong className="spex-word" title="The word spex shows for this status">
          {item.word}
        </strong>{' '}
        <span className="muted">
          status <VerbatimText text={item.status} inline />
        </span>
        {' '}
        {item.proposal !== null && (
          <span>
            proposal <VerbatimText text={item.proposal} inline />
          </span>
        )}
        {' '}
        <ItemPlace source={source} sessionId={sessionId} item={item} />
      </header>
      <Changed now={item.now} />
      {item.note !== null && (
        <SpexText
          source={source}
          sessionId={sessionId}
          itemKey={item.key}
          text={item.note}
          clippedBytes={item.noteClipped?.bytes}
          large={item.large}
          hintAt={null}
          textOf={noteOf}
          copyLabel="Copy the exact note"
        />
      )}
    </Article>
  );
}

function UnknownKindItem({ source, sessionId, item, selected }: Of<'unknown-kind'>) {
  return (
    <Article item={item} selected={selected} className="record-row unknown-row" label={`Line ${item.line}: kind ${item.kindName}`}>
      <header className="entry-head">
        <strong>
          A line of a kind spex's reader does not know: <VerbatimText text={item.kindName} inline />
        </strong>
        {' '}
        <span className="muted">kept, shown as written</span>
        {' '}
        <ItemPlace source={source} sessionId={sessionId} item={item} />
      </header>
      <Changed now={item.now} />
      <RawLine source={source} sessionId={sessionId} item={item} />
    </Article>
  );
}

const EVIDENCE_WORDS: Record<Extract<SpexItem, { type: 'evidence' }>['evidence'], string> = {
  damaged: 'is damaged: it does not parse.',
  invalid: 'is invalid: JSON that is not an event.',
  torn: 'is torn: it stopped before its end and did not complete in time, a write cut short.',
  pending: 'is being written: it is shown once its end is.',
};

function EvidenceItem({ source, sessionId, item, selected }: Of<'evidence'>) {
  return (
    <Article item={item} selected={selected} className={`record-row evidence-row evidence-${item.evidence}`} label={`Line ${item.line}: ${item.evidence}`}>
      <header className="entry-head">
        <strong>
          Line {item.line} {EVIDENCE_WORDS[item.evidence]}
        </strong>{' '}
        {item.evidence !== 'pending' && <Mark name="unknown" />}
        {' '}
        <span className="muted">{countOf(item.bytes, 'byte')}</span>
        {' '}
        <ItemPlace source={source} sessionId={sessionId} item={item} timeOfItsOwn={false} />
      </header>
      <p className="why">{item.why}</p>
      <Changed now={item.now} />
      {item.evidence !== 'pending' && <RawLine source={source} sessionId={sessionId} item={item} />}
    </Article>
  );
}

function RawLine({ source, sessionId, item }: { source: string; sessionId: string; item: Extract<SpexItem, { type: 'evidence' | 'unknown-kind' }> }) {
  if (item.raw === null) return <p className="entry-note muted">Its text is not shown (it may hold spex's private delivery data, or is not UTF-8).</p>;
  return (
    <SpexText
      source={source}
      sessionId={sessionId}
      itemKey={item.key}
      text={item.raw}
      clippedBytes={item.rawClipped?.bytes}
          large={item.large}
      hintAt={null}
      textOf={rawOf}
      copyLabel="Copy the line as written"
    />
  );
}

/** A line that no longer holds what was read: the item keeps what it said then, and says this. */
function Changed({ now }: { now: string | null }) {
  if (now === null) return null;
  return <p className="entry-note warn">This line changed after it was read ({now}); shown as it was read.</p>;
}

/**
 * When, where in which log, and the item's own address. A line that is not an event has no time
 * of its own: it stands at the time of the line before it, and says so.
 */
function ItemPlace({ source, sessionId, item, where = 'its log', timeOfItsOwn = true }: { source: string; sessionId: string; item: SpexItem; where?: string; timeOfItsOwn?: boolean }) {
  const path = itemPath(source, sessionId, item.key);
  return (
    <span className="spex-place">
      <Link to={path} className="entry-time" aria-label={`Link to item ${item.key}`} title={timeOfItsOwn ? undefined : 'This line has no time of its own: it stands where it is in its log'}>
        {item.at === null ? 'no time' : timeOfItsOwn ? <Time at={item.at} /> : <>in place, after <Time at={item.at} /></>}
      </Link>{' '}
      <span className="seq" title={`${LINE_NUMBERS_WORDS}; in segment ${item.segment}`}>
        line {item.line} of {where}
      </span>{' '}
      <CopyButton getText={() => new URL(path, window.location.origin).href} label={`Copy a link to item ${item.key}`} children="Copy link" />
    </span>
  );
}

function Article({ item, selected, className, label, children }: { item: SpexItem; selected: boolean; className: string; label: string; children: ReactNode }) {
  return (
    <article className={`${className}${selected ? ' selected' : ''}`} data-item={item.key} aria-label={label} aria-current={selected ? 'true' : undefined}>
      {children}
    </article>
  );
}
