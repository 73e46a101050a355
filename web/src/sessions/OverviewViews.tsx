import { useSessions } from './useSessions.ts';
import { ConversationsTable, readConversationSort } from './ConversationsTable.tsx';
import { useRouter } from '../router/Router.tsx';
import { SessionTable } from './SessionTable.tsx';
import { conversationWord, isRecordSession } from './conversations.ts';
import { countOf } from '../text/count.ts';

export function ProjectView({ cwd }: { cwd: string | null }) {
  const { data } = useSessions();
  const project = data?.projects.find((candidate) => candidate.cwd === cwd);
  return (
    <main className="view overview" aria-label="Project">
      <h1>
        Project <code>{cwd ?? '(no directory named)'}</code>
      </h1>
      {data !== undefined && project === undefined && <p className="notice">No session of this record names this directory.</p>}
      {project !== undefined && (
        <SessionTable sessions={project.sessions.filter(isRecordSession)} caption={`${countOf(project.sessions.filter(isRecordSession).length, 'session')}, latest activity first`} />
      )}
    </main>
  );
}

export function HomeView() {
  const { data, error } = useSessions();
  const { path, navigate } = useRouter();
  // The order is in the address (`/?sort=degraded`), so a sorted overview can be shared.
  const sort = readConversationSort(new URL(path, window.location.origin).searchParams.get('sort'));
  const all = data?.projects.flatMap((project) => project.sessions) ?? [];
  const degraded = all.filter(isRecordSession).filter((session) => session.degraded.length > 0);
  const word = conversationWord(data?.sources ?? []);
  const recordOnly = word === 'session';
  return (
    <main className="view overview" aria-label="Overview">
      <h1>{recordOnly ? 'The record' : 'Every store'}</h1>
      {error !== null && <p className="notice error">Could not load the list: {error.message}</p>}
      {recordOnly ? (
        <p className="lede">
          What each session sent and received, as its mod saw it. The record is observational: a gap or a damaged file is unknown, never
          “nothing was sent”, and no received entry is joined to a sent one. Pick a session on the left, or below.
        </p>
      ) : (
        <p className="lede">
          What each session sent and received, as each store kept it: the record, spex session timelines, set-agent-comm rooms. Evidence
          that is missing or damaged is unknown, never “nothing happened”, and no received message is joined to a sent one by text,
          time or peer. Pick a conversation on the left, or below.
        </p>
      )}
      {data !== undefined && (
        <p>
          {countOf(data.projects.length, 'project')}, {countOf(all.length, word)}, {data.degradedSessions.toLocaleString('en')} with degraded {recordOnly ? 'recording' : 'evidence'}.
        </p>
      )}
      {data !== undefined && all.length > 0 && (
        <ConversationsTable conversations={all} sort={sort} onSort={(next) => navigate(next === 'last' ? '/' : `/?sort=${next}`, { replace: true })} />
      )}
      {degraded.length > 0 && <SessionTable sessions={degraded} caption="Sessions whose record is incomplete" />}
    </main>
  );
}
