import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { StoreKind } from '../sources/kinds.ts';

/** A spex home as the command finds, names and reads it (server/sources/kinds.ts). */
export const spexStore: StoreKind<'spex'> = {
  kind: 'spex',
  words: 'the spex home',
  holds: { name: 'a spex home', what: 'projects/*/sessions/' },
  recognize: (dir, names) => names.includes('projects') && holdsSpexSessions(join(dir, 'projects')),
  option: {
    name: 'spex',
    help: 'read a spex home (default $SPEXCODE_HOME, else ~/.spexcode)',
    defaultPlace: () => process.env['SPEXCODE_HOME'] || join(homedir(), '.spexcode'),
  },
  loadSource: () => import('./spexSource.ts').then((module) => module.createSpexSource),
};

function holdsSpexSessions(projects: string): boolean {
  try {
    return readdirSync(projects).some((project) => {
      try {
        return statSync(join(projects, project, 'sessions')).isDirectory();
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}
