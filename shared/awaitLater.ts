/**
 * Marks `work`, a promise begun ahead of the moment it is awaited (a batch read ahead while the
 * one before it is sent, a large file read on a thread while the small ones are read here), as
 * handled, and gives it back. Between its start and its await it may fail (its client went away)
 * while nothing awaits it yet, and an await that is never reached (the work stopped first) leaves
 * it so for good: Node ends the process on such an unhandled rejection. Awaited, it still throws,
 * so its failure is told where it is awaited; only a failure nobody was left to hear is let go.
 */
export function awaitLater<T>(work: Promise<T>): Promise<T> {
  work.catch(() => {});
  return work;
}
