import { sep } from 'node:path';
import type { LiveItem } from '../../shared/wire/common.ts';
import { readEntry } from '../../shared/record/entry.ts';
import { parseEntryName } from '../../shared/record/entryName.ts';
import { concludeObservation } from '../../shared/record/observation.ts';
import { pathIn } from '../watch/listFolder.ts';
import { lookAtFile } from './lookAtFile.ts';
import { projectFile, textSeenIn } from './liveItems.ts';

/**
 * Items of a session folder the first scan has not read yet, told at once. A write there is
 * asked of a scan thread, which reads the folder whole so that its session is told as it is;
 * but a scan thread yields the CPU to everything else, and its answer came 50–70 ms late at 1M
 * while the machine was busy. The file written is looked at here meanwhile, and its item told,
 * the index untouched: the session and the list wait for the whole folder, and one file's look
 * never stands for a session's summary (no "no start" for a session whose start is not read yet).
 * When the thread's look of the folder tells the same item again, it is not told twice.
 */
export function createEarlyItems(source: string, recordDir: string, pendingWindowMs?: number) {
  /** Per session, the items told early, by key, as last told (early, or by the index since): until the first scan is over. */
  const told = new Map<string, Map<string, string>>();

  return {
    /**
     * The item a file is now, from a look on this thread; null when there is no file there, or
     * when it is as it was last told (a write stirs its file more than once: an add, a change).
     */
    look(sessionId: string, name: string): LiveItem | null {
      const entryName = parseEntryName(name);
      const look = lookAtFile(pathIn(`${recordDir}${sep}${sessionId}`, { name }), entryName, readEntry);
      const known = concludeObservation(null, { name, entryName, mtimeMs: look.mtimeMs ?? 0 }, look.seen, Date.now(), performance.now(), pendingWindowMs);
      if (known === null) return null;
      const item = projectFile(source, sessionId, known, textSeenIn(look.reading));
      let items = told.get(sessionId);
      if (items === undefined) told.set(sessionId, (items = new Map()));
      const telling = JSON.stringify(item);
      if (items.get(item.key) === telling) return null;
      items.set(item.key, telling);
      return item;
    },
    /**
     * Whether this item, which the index tells, was told early just as it is: then it is not told
     * again. What the index tells is kept as told, so that a look after it (a folder asked again,
     * a late stir) tells only what is new.
     */
    toldAlready(sessionId: string, item: LiveItem): boolean {
      const items = told.get(sessionId);
      const early = items?.get(item.key);
      if (early === undefined) return false;
      const telling = JSON.stringify(item);
      items!.set(item.key, telling);
      return early === telling;
    },
    /** Whether any item told early is remembered. */
    holdsAny: (): boolean => told.size > 0,
    /** Forgets what was told: once the first scan is over, nothing is looked at early again. */
    clear(): void {
      told.clear();
    },
  };
}
