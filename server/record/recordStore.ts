import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseEntryName } from '../../shared/record/entryName.ts';
import type { StoreKind } from '../sources/kinds.ts';
import { beginRecordScan } from './scanStart.ts';

/** Folders of a record looked into for an entry before giving up: enough, and bounded. */
const RECORD_FOLDERS_LOOKED_AT = 64;

/** The record as the command finds, names and reads it (server/sources/kinds.ts). */
export const recordStore: StoreKind<'record'> = {
  kind: 'record',
  words: 'the record',
  holds: { name: 'a record', what: 'session folders of <time>-<seq>.json files' },
  recognize: (dir, names) => holdsRecordFolders(dir, names),
  begin: beginRecordScan,
  loadSource: () => import('./recordSource.ts').then((module) => module.createRecordSource),
};

/** A record holds session folders; one entry file in one of them, or only empty folders, says so. */
function holdsRecordFolders(dir: string, names: readonly string[]): boolean {
  let folders = 0;
  let empty = 0;
  for (const name of names) {
    if (folders === RECORD_FOLDERS_LOOKED_AT) break;
    const path = join(dir, name);
    let inside: string[];
    try {
      if (!statSync(path).isDirectory()) continue;
      folders++;
      inside = readdirSync(path);
    } catch {
      continue;
    }
    if (inside.length === 0) empty++;
    if (inside.some((file) => parseEntryName(file) !== null)) return true;
  }
  return folders > 0 && empty === folders;
}
