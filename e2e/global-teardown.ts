import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fingerprint } from './support/record.ts';
import { loadShared } from './support/sharedRecord.ts';

/** The read-only claim over the whole run: every file of the shared record is as it was. */
export default async function globalTeardown(): Promise<void> {
  const { shared, fingerprint: before } = await loadShared();
  const after = await fingerprint(shared.dir);
  const same = JSON.stringify(before) === JSON.stringify(after);
  if (!same) {
    throw new Error(`the e2e run changed the shared record:\nbefore:\n${before.join('\n')}\nafter:\n${after.join('\n')}`);
  }
  await rm(path.dirname(shared.dir), { recursive: true, force: true });
}
