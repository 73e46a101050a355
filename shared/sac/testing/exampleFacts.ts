import type { StoreFileName } from '../layout.ts';
import { readStoreFiles, type StoreFacts, type StoreFileInput } from '../storeFiles.ts';
import { EXAMPLE_STORE } from './exampleStore.ts';
import { bytesOf } from './sacWriter.ts';

/** The example store's JSON files as the core reads them; an override's text replaces a file's, null takes it away. */
export function readExampleFacts(overrides: Partial<Record<StoreFileName, string | null>> = {}): StoreFacts {
  const input = (name: StoreFileName): StoreFileInput => {
    const text = name in overrides ? overrides[name] : EXAMPLE_STORE[name];
    return text === null || text === undefined ? { state: 'absent' } : { state: 'read', bytes: bytesOf(text) };
  };
  return readStoreFiles({
    'registry.json': input('registry.json'),
    'members.json': input('members.json'),
    'rooms.json': input('rooms.json'),
    'focus.json': input('focus.json'),
    'presence.json': input('presence.json'),
    'cursors.json': input('cursors.json'),
  });
}
