import type { ConversationSummary } from '../../../shared/wire/kinds.ts';
import { kindNamed, listKinds } from '../kinds/registry.ts';
import { useRouter } from '../router/Router.tsx';
import { countOf } from '../text/count.ts';
import { capitalize } from '../../../shared/words.ts';
import { SessionsTable } from '../session/SessionsTable.tsx';
import { useJoinedSessions } from '../session/useJoinedSessions.ts';
import { ConversationsTable, readConversationSort, type ConversationSort } from './ConversationsTable.tsx';
import { conversationWord } from './conversations.ts';
import { useConversations } from './useConversations.ts';

const EVERY_STORE = {
  title: 'Every store',
  lede: 'What each session sent and received, as each store kept it: the record, spex session timelines, set-agent-comm rooms. Evidence that is missing or damaged is unknown, never “nothing happened”, and no received message is joined to a sent one by text, time or peer. Pick a conversation in the list of sessions, or below.',
  degraded: 'evidence',
};

export function ProjectView({ cwd }: { cwd: string | null }) {
  const { data } = useConversations();
  const { path, navigate } = useRouter();
  const url = new URL(path, window.location.origin);
  const sort = readConversationSort(url.searchParams.get('sort'));
  const project = data?.projects.find((candidate) => candidate.cwd === cwd);
  const word = conversationWord(data?.sources ?? []);
  return (
    <main className="view overview" aria-label="Project">
      <h1>
        Project <code>{cwd ?? '(no directory named)'}</code>
      </h1>
      {data !== undefined && project === undefined && <p className="notice">No {word} of the stores read names this directory.</p>}
      <JoinedSessions cwd={cwd} />
      {project !== undefined && (
        <ProjectTables
          conversations={project.sessions}
          sort={sort}
          onSort={(next) => {
            const query = new URLSearchParams(url.search);
            if (next === 'last') query.delete('sort');
            else query.set('sort', next);
            navigate(`/project?${query}`, { replace: true });
          }}
        />
      )}
    </main>
  );
}

export function HomeView() {
  const { data, error } = useConversations();
  const { path, navigate } = useRouter();
  // The order is in the address (`/?sort=degraded`), so a sorted overview can be shared.
  const sort = readConversationSort(new URL(path, window.location.origin).searchParams.get('sort'));
  const all = data?.projects.flatMap((project) => project.sessions) ?? [];
  const word = conversationWord(data?.sources ?? []);
  const kinds = new Set(data?.sources.map((source) => source.kind) ?? []);
  const words = (kinds.size === 1 ? kindNamed([...kinds][0]!)?.alone : undefined) ?? EVERY_STORE;
  return (
    <main className="view overview" aria-label="Overview">
      <h1>{words.title}</h1>
      {error !== null && <p className="notice error">Could not load the list: {error.message}</p>}
      <p className="lede">{words.lede}</p>
      {data !== undefined && (
        <p>
          {countOf(data.projects.length, 'project')}, {countOf(all.length, word)}, {data.degradedSessions.toLocaleString('en')} with degraded {words.degraded}.
        </p>
      )}
      <JoinedSessions cwd={undefined} />
      {data !== undefined && all.length > 0 && (
        <ConversationsTable conversations={all} counted={`All ${countOf(all.length, 'conversation')}`} sort={sort} onSort={(next) => navigate(next === 'last' ? '/' : `/?sort=${next}`, { replace: true })} />
      )}
      {listKinds().map(([name, kind]) => {
        const Section = kind.OverviewSection;
        return Section === undefined ? null : <Section key={name} conversations={all.filter((conversation: ConversationSummary) => conversation.source.kind === name)} />;
      })}
    </main>
  );
}

/** A project's conversations, a table per kind: a kind's own where it has one, with what it alone counts. */
function ProjectTables({ conversations, sort, onSort }: { conversations: readonly ConversationSummary[]; sort: ConversationSort; onSort(sort: ConversationSort): void }) {
  return listKinds().map(([name, kind]) => {
    const mine = conversations.filter((conversation) => conversation.source.kind === name);
    if (mine.length === 0) return null;
    // Named by its store: a project's tables, one a store, otherwise said only "4 sessions" and "2 seats".
    const counted = `${capitalize(kind.name)}: ${countOf(mine.length, kind.noun)}`;
    const Table = kind.Table;
    return Table === undefined ? <ConversationsTable key={name} conversations={mine} counted={counted} sort={sort} onSort={onSort} /> : <Table key={name} conversations={mine} caption={`${counted}, latest activity first`} />;
  });
}

/**
 * Claude Code sessions across the stores (the server's join on the full id each store states): a
 * project's, or on the overview every project's, each session once per project it is in.
 */
function JoinedSessions({ cwd }: { cwd: string | null | undefined }) {
  const { data } = useJoinedSessions();
  if (data === undefined) return null;
  const projects = cwd === undefined ? data.projects : data.projects.filter((project) => project.cwd === cwd);
  return projects.map((project) => (
    <SessionsTable key={project.cwd ?? ''} sessions={project.sessions} caption={`${countOf(project.sessions.length, 'session')}${cwd === undefined ? ` in ${project.cwd ?? '(no directory named)'}` : ''}, each with the stores that hold it (joined on its full id), latest first`} />
  ));
}
