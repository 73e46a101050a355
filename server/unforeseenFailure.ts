// What the command does with a failure nobody foresaw: an exception no code catches, or a
// rejection no code handles. It ends, as Node ends any process then, and first says so in its own
// words (docs/architecture.md, "Failures nobody foresaw").
//
// Why it ends rather than logs and goes on: such a failure left whatever it was doing half done,
// and nothing says what that was. A lane's slot or an export's admission never given back refuses
// every later request as busy; a watch whose reconcile stopped shows a stale store as live, which
// is "nothing happened" where something did. A dashboard that has stopped says so in every open
// tab (the server is lost), and costs nothing to start again: it writes to no store, so there is
// nothing to lose or repair. The failures that are confined to one request or one read are
// handled where they happen: a route's error is its request's 500 (server/http/errors.ts), work
// begun ahead and awaited later is marked handled as it begins (shared/awaitLater.ts), a thread's
// error is told to the thread's owner, which reads on without it.

/** Has the command say, before Node ends it for a failure nobody foresaw, what happened and that no store was touched. */
export function reportUnforeseenFailures(write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): void {
  // A monitor observes and changes nothing: Node still prints the error and ends the process.
  process.on('uncaughtExceptionMonitor', (_error, origin) => {
    const what = origin === 'unhandledRejection' ? 'a failure nobody handled' : 'an error nobody caught';
    write(`rec-dashboard: stopped by ${what} (a bug: please report it with what follows). It never writes to a store, so none was changed; start it again to go on.`);
  });
}
