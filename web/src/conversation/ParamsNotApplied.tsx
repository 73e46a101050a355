// A conversation's page given an address with a filter it does not take (`?side=received` on a
// spex session, `?others=1` on a record session, `?side=both` anywhere) says so, rather than
// showing everything as if the filter held. Each kind's page names the parameters it reads and
// gives the query it applied; every other parameter, or value, of the address is listed here.

type Props = {
  /** The page's query, as the address has it. */
  query: string;
  /** The parameters this page reads. */
  reads: readonly string[];
  /** What it applied of them, as a query: a value it does not take is not in it. */
  applied: URLSearchParams | string;
};

function Codes({ words }: { words: readonly string[] }) {
  return words.map((word, index) => (
    <span key={word}>
      {index > 0 && ', '}
      <code>{word}</code>
    </span>
  ));
}

export function ParamsNotApplied({ query, reads, applied }: Props) {
  const taken = new Set([...new URLSearchParams(applied)].map(([name, value]) => `${name}=${value}`));
  const ignored = [...new URLSearchParams(query)].filter(([name, value]) => !taken.has(`${name}=${value}`));
  if (ignored.length === 0) return null;
  const pairs = (kept: (name: string) => boolean) => [...new Set(ignored.filter(([name]) => kept(name)).map(([name, value]) => `${name}=${value}`))];
  // A name the page reads, with a value it does not take (`side=both`), is said apart from a name it does not read.
  const values = reads.length > 0 ? pairs((name) => reads.includes(name)) : [];
  const names = pairs((name) => reads.length === 0 || !reads.includes(name));
  return (
    <p className="notice warn params-not-applied" role="status">
      Not applied on this page:{' '}
      {values.length > 0 && (
        <>
          <Codes words={values} /> (not {values.length === 1 ? 'a value' : 'values'} it takes)
          {names.length > 0 ? '; ' : '.'}
        </>
      )}
      {names.length > 0 &&
        (reads.length > 0 ? (
          <>
            <Codes words={names} /> (this page's address takes only <Codes words={reads} />).
          </>
        ) : (
          <>
            <Codes words={names} />. It shows every item; the session's page across the stores narrows by store, side and peer.
          </>
        ))}
    </p>
  );
}
