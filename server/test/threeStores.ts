import { startSacWriter, type SacWriter } from '../../tools/writer/sacWriter.ts';
import { startSpexWriter, type SpexWriter } from '../../tools/writer/spexWriter.ts';
import { startWriter, type Writer } from '../../tools/writer/writerClient.ts';
import { makeTempRecord } from './harness.ts';
import { writeExampleStore } from './sacApp.ts';
import { A, PROJECT, sentEvent, sessionJson } from './spexHarness.ts';

// A store of each kind, each written by its own writer process into a temporary folder: a record
// of one session with the entries given, a spex home whose session A got a person's message
// about the cart, and the set-agent-comm store sac's own CLI wrote, which talks of the cart too.

export type ThreeStores = {
  record: string;
  spex: string;
  sac: string;
  recordWriter: Writer;
  spexWriter: SpexWriter;
  sacWriter: SacWriter;
  remove(): Promise<void>;
};

export async function writeThreeStores(prefix: string, sessionId: string, entries: readonly Record<string, unknown>[]): Promise<ThreeStores> {
  const stores = await startThreeWriters(prefix);
  for (const [index, entry] of entries.entries()) await stores.recordWriter.send({ op: 'write', sessionId, seq: index + 1, entry });
  await stores.spexWriter.send({ op: 'session', project: PROJECT, sessionId: A, value: sessionJson(A) });
  await stores.spexWriter.send({ op: 'event', project: PROJECT, sessionId: A, event: sentEvent('please look at the cart', null) });
  await writeExampleStore(stores.sacWriter);
  return stores;
}

/** Three empty temporary stores, each with its own writer process started over it. */
export async function startThreeWriters(prefix: string): Promise<ThreeStores> {
  const [record, spex, sac] = ['record', 'spex', 'sac'].map((kind) => makeTempRecord(`${prefix}-${kind}-`)) as [ReturnType<typeof makeTempRecord>, ReturnType<typeof makeTempRecord>, ReturnType<typeof makeTempRecord>];
  const recordWriter = await startWriter(record.dir);
  const spexWriter = await startSpexWriter(spex.dir);
  const sacWriter = await startSacWriter(sac.dir);
  return {
    record: record.dir,
    spex: spex.dir,
    sac: sac.dir,
    recordWriter,
    spexWriter,
    sacWriter,
    async remove() {
      await recordWriter.kill();
      await spexWriter.kill();
      await sacWriter.close();
      for (const dir of [record, spex, sac]) dir.remove();
    },
  };
}
