import { assertBuilt } from './support/dashboard.ts';
import { fingerprint } from './support/record.ts';
import { SHARED_ENV, saveShared, writeSharedRecord } from './support/sharedRecord.ts';

export default async function globalSetup(): Promise<void> {
  assertBuilt();
  const shared = await writeSharedRecord();
  await saveShared(shared, await fingerprint(shared.dir));
  // Workers start after this and inherit the environment.
  process.env[SHARED_ENV] = shared.dir;
}
