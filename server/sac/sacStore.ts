import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SECRET_FILES } from '../../shared/sac/layout.ts';
import type { StoreKind } from '../sources/kinds.ts';

/** A set-agent-comm store as the command finds, names and reads it (server/sources/kinds.ts). */
export const sacStore: StoreKind<'sac'> = {
  kind: 'sac',
  words: 'the set-agent-comm store',
  holds: { name: 'a set-agent-comm store', what: 'channels/ and registry.json' },
  recognize: (dir, names) => names.includes('channels') && names.includes('registry.json') && isFolder(join(dir, 'channels')),
  option: {
    name: 'sac',
    help: 'read a set-agent-comm store (default $SET_AGENT_COMM_DIR, else ${XDG_DATA_HOME:-~/.local/share}/set-agent-comm)',
    defaultPlace: () => process.env['SET_AGENT_COMM_DIR'] || join(process.env['XDG_DATA_HOME'] || join(homedir(), '.local', 'share'), 'set-agent-comm'),
  },
  secretPrefixes: SECRET_FILES,
  loadSource: () => import('./sacSource.ts').then((module) => module.createSacSource),
};

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
