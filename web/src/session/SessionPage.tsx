import { useCallback, useMemo, useRef } from 'react';
import type { ConversationSummary } from '../../../shared/wire/kinds.ts';
import type { JoinedSessionResponse, SessionItem } from '../../../shared/wire/session.ts';
import { isNotHere } from '../api/client.ts';
import { apiUrls } from '../api/urls.ts';
import { ConversationList } from '../conversation/ConversationList.tsx';
import { useConversationList, type RowPlace } from '../conversation/useConversationList.ts';
import { useToggledKeys } from '../conversation/useToggledKeys.ts';
import { DownloadLinks } from '../export/DownloadLinks.tsx';
import { kindNamed, kindOf } from '../kinds/registry.ts';
import { Link, useRouter } from '../router/Router.tsx';
import { conversationPath, itemPath, sessionPath } from '../router/routes.ts';
import { countOf, writeCount } from '../text/count.ts';
import { ParamsNotApplied } from '../conversation/ParamsNotApplied.tsx';
import { FoldedFilters } from '../conversation/FoldedFilters.tsx';
import { SideSelect } from '../conversation/SideSelect.tsx';
import { SESSION_LIMITS, SESSION_PARAMS, isForOthers, isShown, isStoreShown, readSessionFilter, writeSessionFilter, type SessionFilter, type SessionLimit } from './sessionFilter.ts';
import { NO_OTHER_STORE } from './SessionAcrossStores.tsx';
import { useJoinedSession, useJoinedSessions } from './useJoinedSessions.ts';
import './session.css';

// One Claude Code session across the stores: every item of every store that states its full id,
// Sent | Received on one time axis, each labelled with its store and shown as its store's own page
// shows it. Nothing pairs two items: a received record entry still says the record does not show
// which sent entry it corresponds to, and a spex line seen from the sender's side says it comes
// from the receiver's log. It stays current from the event stream's notices (events/), and opens
// at the newest item, following what arrives, as each store's own page does.

export default function SessionPage({ session, item, query }: { session: string; item: string | null; query: string }) {
  const { navigate } = useRouter();
  const filter = useMemo(() => readSessionFilter(query), [query]);
  const { data, error } = useJoinedSession(session, filter.limit);
  // A choice is a step the Back button returns from, as on a conversation's page; a peer typed
  // is one step, whatever number of keys it took: its first key is a step, the others replace it.
  const setFilter = (next: SessionFilter) => {
    const typing = filter.peer !== '' && writeSessionFilter({ ...next, peer: '' }).toString() === writeSessionFilter({ ...filter, peer: '' }).toString();
    navigate(sessionPath(session, writeSessionFilter(next)), { replace: typing });
  };
  // A store in the address that holds none of this session is not applied, and said so.
  const applied = useMemo(() => {
    if (data === undefined) return filter;
    const held = new Set(data.conversations.map((conversation) => conversation.source.id));
    return { ...filter, stores: filter.stores.filter((id) => held.has(id)) };
  }, [data, filter]);
  const shown = useMemo(() => (data === undefined ? [] : rowsOf(data).filter((row) => (row.type === 'cut' ? isStoreShown(row.cut.source.id, applied) : isShown(row.item, applied)))), [data, applied]);
  const shownItems = useMemo(() => shown.filter((row) => row.type === 'item').length, [shown]);
  const forOthersLeftOut = useMemo(() => (data === undefined || applied.others ? 0 : data.items.filter((one) => isStoreShown(one.item.source.id, applied) && isForOthers(one)).length), [data, applied]);
  const filtersApplied = writeSessionFilter({ ...applied, limit: SESSION_LIMITS[0] }).size;
  // The shell's list, as every conversation's page has it: only the rows on screen drawn, opened
  // at the newest and following it, moved through with the keys.
  const keyOf = useCallback((index: number) => rowKey(shown[index]!), [shown]);
  const rowAt = (index: number): RowPlace | undefined => {
    const row = shown[index];
    return row === undefined ? undefined : { key: rowKey(row), column: row.type === 'cut' ? 'both' : (row.item.side ?? 'both') };
  };
  // An item the address names (`/item/<its row's name>`): the page opens at it, selected; an item
  // the reader selects is put in the address, as on every conversation's page.
  const targetIndex = useMemo(() => (item === null || data === undefined ? undefined : indexOfRow(shown, item)), [item, data, shown]);
  // Whether each item named was found when first looked for: one picked that the newest items
  // later push out (or a filter hides) is not said to be missing from a page that did not move.
  const foundFirst = useRef(new Map<string, boolean>());
  if (item !== null && targetIndex !== undefined && !foundFirst.current.has(item)) foundFirst.current.set(item, targetIndex !== null);
  // Items shown in their raw form (a record entry's JSON), by their row's name: `r` or a button.
  const [rawKeys, toggleRaw] = useToggledKeys();
  const list = useConversationList({
    count: data === undefined ? null : shown.length,
    rowAt,
    target: item === null ? null : { key: item, index: targetIndex },
    keyOf,
    // A cut's row is no item: it is not put in the address.
    onSelectItem: (key) => {
      if (key.startsWith(CUT_KEY)) return false;
      navigate(sessionPath(session, writeSessionFilter(filter), key), { replace: true });
    },
    // Enter opens the item selected in its store's own page, at it: there it has its context (its
    // conversation's degraded evidence, spex's declarations, a seat's rooms).
    keys: {
      Enter: (selected) => {
        const row = selected === null ? undefined : shown[selected];
        if (row?.type === 'item' && !(row.item.kind === 'record' && row.item.item.type === 'gap')) navigate(itemPath(row.item.item.source.id, row.item.conversation, nameInStore(row.item)));
      },
      r: (selected) => {
        const row = selected === null ? undefined : shown[selected];
        if (row?.type === 'item') toggleRaw(rowKey(row));
      },
    },
  });

  return (
    <main className="view session-view conversation-view" aria-label="Session across the stores">
      <header className="session-header">
        <h1>
          Session <code className="full-id">{session}</code>
        </h1>
        {error !== null && <p className={`notice ${isNotHere(error) ? '' : 'error'}`}>{isNotHere(error) ? 'No store read names this full session id.' : `Could not load the session: ${error.message}`}</p>}
        {isNotHere(error) && <SessionsBeginningWith start={session} />}
        {data !== undefined && <StoreViews data={data} filter={applied} onMore={(limit) => setFilter({ ...filter, limit })} />}
        {/* Nothing to download where no store names the session. */}
        {!isNotHere(error) && <DownloadLinks path={apiUrls.joinedSessionExport(session)} query={new URLSearchParams()} what="this session from every store" />}
      </header>
      <ParamsNotApplied query={query} reads={SESSION_PARAMS} applied={writeSessionFilter(applied)} />
      {item !== null && data !== undefined && targetIndex === null && foundFirst.current.get(item) === false && <ItemNotShown item={item} held={data.items.some((one) => rowKey({ type: 'item', item: one }) === item)} limit={filter.limit} />}
      {data !== undefined && (
        <FoldedFilters applied={filtersApplied}>
          <Filters data={data} filter={applied} onFilter={setFilter} />
        </FoldedFilters>
      )}
      {/* How many are shown of those fetched, and why not all, as a conversation's page says: a column left empty reads as narrowed, not as silent. */}
      {data !== undefined && shownItems < data.items.length && (
        <p className="filter-words">
          Showing {writeCount(shownItems)} of the {countOf(data.items.length, 'item')} fetched
          {filtersApplied > 0 ? ': those the filters let through' : ''}
          {forOthersLeftOut > 0 ? `${filtersApplied > 0 ? ';' : ':'} ${writeCount(forOthersLeftOut)} addressed to other seats left out unless asked for` : ''}.
        </p>
      )}
      {data !== undefined && (
        <ConversationList list={list} rowAt={rowAt} busy={false} label="Sent and received, every store, in time order" headings={{ sent: 'Sent', received: 'Received' }} renderRow={(index) => {
            const row = shown[index]!;
            return row.type === 'cut' ? <CutRow cut={row.cut} more={nextLimit(filter.limit)} onMore={(limit) => setFilter({ ...filter, limit })} /> : <SessionRow item={row.item} raw={rawKeys.has(rowKey(row))} onToggleRaw={() => toggleRaw(rowKey(row))} />;
          }}>
          {!shown.some((row) => row.type === 'item') && <p className="notice">{data.items.length === 0 ? 'None of its stores holds an item of it.' : 'No item matches the filters.'}</p>}
        </ConversationList>
      )}
    </main>
  );
}

/**
 * Each store's own view of the session, one click away: its degraded evidence, spex's
 * declarations, sac's rooms; beside it, what that view leads with (its kind's `Lead`) and its
 * degraded reasons in its store's words, a link to that view. A conversation cut to its newest items says so, and the page asks for
 * more on a click (`limit`, in the address).
 */
function StoreViews({ data, filter, onMore }: { data: JoinedSessionResponse; filter: SessionFilter; onMore(limit: SessionLimit): void }) {
  const more = nextLimit(filter.limit);
  // A store the filter leaves out shows nothing here: nor that it is cut.
  const cuts = data.cut.filter((cut) => isStoreShown(cut.source.id, filter));
  return (
    <>
      <ul className="store-views" aria-label="Its stores">
        {data.conversations.map((conversation: ConversationSummary) => {
          const kind = kindOf(conversation);
          const lacking = data.mayLack.find((one) => one.source.id === conversation.source.id && one.conversation === conversation.id);
          return (
            <li key={`${conversation.source.id}/${conversation.id}`}>
              <Link to={conversationPath(conversation.source.id, conversation.id)} className={`store-badge kind-${conversation.source.kind}${conversation.degraded.length > 0 ? ' degraded' : ''}`}>
                {/* Its store's name, then what the store calls it ("seat"), and the seat's name where it is not the session's id. */}
                <span className="store-name">{kind.name}</span> {kind.noun}
                {conversation.id === data.session ? '' : ` ${conversation.id}`}
              </Link>
              {kind.Lead !== undefined && (
                <>
                  {' '}
                  <span className="store-lead">
                    <kind.Lead conversation={conversation} />
                  </span>
                </>
              )}
              {conversation.degraded.length > 0 && (
                <>
                  {' '}
                  <Link to={conversationPath(conversation.source.id, conversation.id)} className="degraded-count" title={`Degraded evidence in ${kind.name}: its own view shows each in place`}>
                    degraded: {kind.describeDegraded(conversation).split('\n').map((words) => words.replace(/\.$/, '')).join('; ')}
                  </Link>
                </>
              )}
              {/* What its items may lack that is no degraded reason of its own: a spex session's Sent, read from other logs. */}
              {lacking !== undefined && (
                <>
                  {/* Its own sentence, never run on from the degraded words before it. */}
                  {' · '}
                  <Link to={conversationPath(conversation.source.id, conversation.id)} className="may-lack" title={lacking.why}>
                    {lacking.said}
                  </Link>
                </>
              )}
            </li>
          );
        })}
        {/* As a store's own page says it: one store's items here are all there is of it, not a filter's doing. */}
        {data.conversations.length === 1 && <li className="muted">{NO_OTHER_STORE}</li>}
      </ul>
      {/* One notice for every store cut, and its button in it: a notice and a line each took the rows' room. */}
      {cuts.length > 0 && (
        <p className="notice session-cut">
          {cuts.map((cut) => (
            <span key={`${cut.source.id}/${cut.conversation}`}>
              {kindNamed(cut.source.kind)?.name}: the newest {countOf(cut.shown, 'item')} of {cut.total.toLocaleString('en')} are shown;{' '}
              <Link to={conversationPath(cut.source.id, cut.conversation)}>its own view</Link> has them all.
            </span>
          ))}
          {more !== undefined && (
            <button type="button" className="small" onClick={() => onMore(more)}>
              Show up to {writeCount(more)} of each
            </button>
          )}
        </p>
      )}
    </>
  );
}

function Filters({ data, filter, onFilter }: { data: JoinedSessionResponse; filter: SessionFilter; onFilter(filter: SessionFilter): void }) {
  const stores = [...new Map(data.conversations.map((conversation) => [conversation.source.id, conversation.source])).values()];
  const toggleStore = (id: string) => onFilter({ ...filter, stores: filter.stores.includes(id) ? filter.stores.filter((one) => one !== id) : [...filter.stores, id] });
  const forOthers = data.items.filter(isForOthers).length;
  return (
    <form className="conversation-controls session-filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
      <fieldset>
        <legend>Store</legend>
        {stores.map((source) => (
          <label key={source.id} className="check">
            <input type="checkbox" checked={filter.stores.includes(source.id)} onChange={() => toggleStore(source.id)} />
            {kindNamed(source.kind)?.name ?? source.kind} <span className="muted">{source.id}</span>
          </label>
        ))}
        {/* A store checked narrows the page to the stores checked; none checked is no narrowing. */}
        {filter.stores.length === 0 && <span className="muted">none chosen: every store is shown</span>}
      </fieldset>
      <SideSelect value={filter.side} onChange={(side) => onFilter({ ...filter, side })} label="Side" any="both" />
      <label>
        Peer <input type="search" value={filter.peer} placeholder="a name, or “a person”" onChange={(event) => onFilter({ ...filter, peer: event.target.value })} />
      </label>
      {(forOthers > 0 || filter.others) && (
        <label className="check" title="Entries a room holds for other seats, not for this session's: its seat's page leaves them out too, unless asked">
          <input type="checkbox" checked={filter.others} onChange={(event) => onFilter({ ...filter, others: event.target.checked })} />
          {countOf(forOthers, 'entry', 'entries')} addressed to other seats
        </label>
      )}
    </form>
  );
}

function SessionRow({ item, raw, onToggleRaw }: { item: SessionItem; raw: boolean; onToggleRaw(): void }) {
  const kind = kindNamed(item.kind)!;
  const View = kind.SessionItem;
  return (
    <div className="joined-row" data-side={item.side ?? 'both'} data-store={item.kind}>
      <p className="item-store">
        <Link to={conversationPath(item.item.source.id, item.conversation)} className={`store-badge kind-${item.kind}`} title={`In ${kind.storeWords} ${item.item.source.id}: its own view`}>
          <span className="store-name">{kind.name}</span>
          {item.kind === 'sac' && ` ${item.conversation}`}
        </Link>
      </p>
      <View item={item.item} source={item.item.source.id} conversation={item.conversation} raw={raw} onToggleRaw={onToggleRaw} />
    </div>
  );
}

/**
 * An address with an id cut short (the 8 characters shown everywhere) names no session: the
 * sessions whose full id begins with it are offered, each by its full id. An offer, not a join:
 * the page shows nothing of them until one is picked.
 */
function SessionsBeginningWith({ start }: { start: string }) {
  const { data } = useJoinedSessions();
  const lower = start.toLowerCase();
  const found = lower.length < MIN_START ? [] : [...new Set(data?.projects.flatMap((project) => project.sessions.map((one) => one.session)) ?? [])].filter((id) => id.toLowerCase().startsWith(lower) && id !== start);
  if (found.length === 0) return null;
  return (
    <div className="notice">
      <p>A session’s page is named by its full id. {found.length === 1 ? 'The session whose id begins with it:' : `The ${found.length} sessions whose id begins with it:`}</p>
      <ul>
        {found.slice(0, OFFERED).map((id) => (
          <li key={id}>
            <Link to={sessionPath(id)}>
              <code className="full-id">{id}</code>
            </Link>
          </li>
        ))}
      </ul>
      {found.length > OFFERED && <p className="muted">and {writeCount(found.length - OFFERED)} more: give more of the id.</p>}
    </div>
  );
}
/** Fewer characters than this name too many sessions to be worth an offer. */
const MIN_START = 4;
const OFFERED = 20;

/** Why an item the address names is not on the page; the page then opens at its first row. */
function ItemNotShown({ item, held, limit }: { item: string; held: boolean; limit: SessionLimit }) {
  return (
    <p className="notice warn" role="status">
      Item <code>{item}</code>{' '}
      {held
        ? 'is this session’s, but the filters leave it out.'
        : `is not among the items shown here (each store’s newest ${writeCount(limit)}): it may be older, or not this session’s.`}{' '}
      The page is shown from its first row.
    </p>
  );
}

type Cut = JoinedSessionResponse['cut'][number];
/** A row of the page: an item of a store, or where a conversation cut to its newest items begins. */
type Row = { type: 'item'; item: SessionItem } | { type: 'cut'; cut: Cut };

/**
 * The session's items on their time axis, each conversation cut to its newest items preceded by a
 * row that says so, in place: above its oldest item shown, the time before it is not empty of that
 * store's items, it is not shown (the record shown whole from 07:25 beside spex cut at 07:34 read
 * as spex silent until then).
 */
function rowsOf(data: JoinedSessionResponse): Row[] {
  const cuts = new Map(data.cut.map((cut) => [`${cut.source.id}/${cut.conversation}`, cut]));
  const rows: Row[] = [];
  for (const item of data.items) {
    const where = `${item.item.source.id}/${item.conversation}`;
    const cut = cuts.get(where);
    if (cut !== undefined) {
      cuts.delete(where);
      rows.push({ type: 'cut', cut });
    }
    rows.push({ type: 'item', item });
  }
  return rows;
}

function nextLimit(limit: SessionLimit): SessionLimit | undefined {
  return SESSION_LIMITS.find((one) => one > limit);
}

/** Where a conversation cut to its newest items begins: what is before it here is not all it holds. */
function CutRow({ cut, more, onMore }: { cut: Cut; more: SessionLimit | undefined; onMore(limit: SessionLimit): void }) {
  const kind = kindNamed(cut.source.kind);
  return (
    <div className="joined-row joined-cut" data-side="both" data-store={cut.source.kind} role="note">
      <p>
        <span className="store-name">{kind?.name ?? cut.source.kind}</span> {kind?.noun} <code>{cut.conversation}</code>: its {countOf(cut.total - cut.shown, 'older item')} {cut.total - cut.shown === 1 ? 'is' : 'are'} not
        shown here, before this point; the {countOf(cut.shown, 'newest item')} are.{' '}
        {more !== undefined && (
          <button type="button" className="small" onClick={() => onMore(more)}>
            Show up to {writeCount(more)} of each
          </button>
        )}{' '}
        <Link to={conversationPath(cut.source.id, cut.conversation)}>Its own view</Link> has them all.
      </p>
    </div>
  );
}

/** Where the row of this name is among the rows shown, or null. */
function indexOfRow(shown: readonly Row[], key: string): number | null {
  const index = shown.findIndex((one) => rowKey(one) === key);
  return index === -1 ? null : index;
}

/** Where a cut's row name begins: no item's, which begins with its store's id. */
const CUT_KEY = 'cut:';

/** A row's name on the page: its store, its conversation, and its name there (a cut's: CUT_KEY, then its conversation). */
function rowKey(row: Row): string {
  return row.type === 'cut' ? `${CUT_KEY}${row.cut.source.id}/${row.cut.conversation}` : `${row.item.item.source.id}/${row.item.conversation}/${nameInStore(row.item)}`;
}

/** An item's name in its conversation, as its store names it. */
function nameInStore(item: SessionItem): string {
  switch (item.kind) {
    case 'record':
      return item.item.type === 'gap' ? `gap-${String(item.item.from)}` : item.item.file;
    case 'spex':
      return item.item.key;
    case 'sac':
      return item.item.item;
  }
}
