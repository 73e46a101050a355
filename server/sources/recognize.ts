import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseEntryName } from '../../shared/record/entryName.ts';
import type { SourceKind } from '../../shared/wire/common.ts';

type Recognized = { kind: SourceKind } | { kind: null; why: string };

/** What is looked for, said in the error for a directory that is none of the kinds. */
const KINDS_LOOKED_FOR =
  'a record (session folders of <time>-<seq>.json files), a spex home (projects/*/sessions/) or a set-agent-comm store (channels/ and registry.json)';

/** Folders of a record looked into for an entry before giving up: enough, and bounded. */
const RECORD_FOLDERS_LOOKED_AT = 64;

/**
 * The kind of store a directory holds, recognised by what it holds and nothing else. A directory
 * that does not exist yet, or is empty, is a record nobody has written to yet (a record's writer
 * makes it when it first writes); it is waited for, as before stores had kinds.
 */
export function recognizeStore(dir: string): Recognized {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) return { kind: null, why: `${dir} is a file, not a store directory. Give the folder of ${KINDS_LOOKED_FOR}.` };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'record' };
    return { kind: null, why: `cannot look at ${dir}: ${(error as Error).message}` };
  }
  try {
    accessSync(dir, constants.R_OK | constants.X_OK);
    names = readdirSync(dir);
  } catch {
    return { kind: null, why: `${dir} cannot be read by this user. Run rec-dashboard as the user who owns it.` };
  }
  if (names.length === 0) return { kind: 'record' };
  if (names.includes('channels') && names.includes('registry.json') && isFolder(join(dir, 'channels'))) return { kind: 'sac' };
  if (names.includes('projects') && holdsSpexSessions(join(dir, 'projects'))) return { kind: 'spex' };
  if (holdsRecordFolders(dir, names)) return { kind: 'record' };
  return { kind: null, why: `${dir} holds none of: ${KINDS_LOOKED_FOR}.` };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function holdsSpexSessions(projects: string): boolean {
  try {
    return readdirSync(projects).some((project) => isFolder(join(projects, project, 'sessions')));
  } catch {
    return false;
  }
}

/** A record holds session folders; one entry file in one of them, or only empty folders, says so. */
function holdsRecordFolders(dir: string, names: string[]): boolean {
  let folders = 0;
  let empty = 0;
  for (const name of names) {
    if (folders === RECORD_FOLDERS_LOOKED_AT) break;
    const path = join(dir, name);
    if (!isFolder(path)) continue;
    folders++;
    let inside: string[];
    try {
      inside = readdirSync(path);
    } catch {
      continue;
    }
    if (inside.length === 0) empty++;
    if (inside.some((file) => parseEntryName(file) !== null)) return true;
  }
  return folders > 0 && empty === folders;
}
