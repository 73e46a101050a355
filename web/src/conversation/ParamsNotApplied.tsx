// A conversation's page given an address with a filter it does not take (`?side=received` on a
// spex session, `?others=1` on a record session) says so, rather than showing everything as if
// the filter held. Each kind's page names the parameters it reads; every other is listed here.

type Props = {
  /** The page's query, as the address has it. */
  query: string;
  /** The parameters this page reads. */
  reads: readonly string[];
};

function Codes({ words }: { words: readonly string[] }) {
  return words.map((word, index) => (
    <span key={word}>
      {index > 0 && ', '}
      <code>{word}</code>
    </span>
  ));
}

export function ParamsNotApplied({ query, reads }: Props) {
  const ignored = [...new URLSearchParams(query)].filter(([name]) => !reads.includes(name)).map(([name, value]) => `${name}=${value}`);
  if (ignored.length === 0) return null;
  return (
    <p className="notice warn params-not-applied" role="status">
      Not applied on this page: <Codes words={[...new Set(ignored)]} />
      {reads.length > 0 ? (
        <>
          {' '}
          (it reads only <Codes words={reads} />).
        </>
      ) : (
        ". It shows every item; the session's page across the stores narrows by store, side and peer."
      )}
    </p>
  );
}
