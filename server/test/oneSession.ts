import { ONE_SESSION_STORES } from '../../shared/session/testing/oneSessionStores.ts';
import { startSacWriter, type SacWriter } from '../../tools/writer/sacWriter.ts';
import { startSpexWriter, type SpexWriter } from '../../tools/writer/spexWriter.ts';
import { startWriter, type Writer } from '../../tools/writer/writerClient.ts';
import { makeTempRecord } from './harness.ts';

// The two sessions of shared/examples/one-session (ids that share their first 8 characters), each
// in all three stores, written into temporary folders by each store's own writer process: the
// record's entries as files, spex's lines one append each, sac's files as its CLI left them.

export type OneSessionStores = { record: string; spex: string; sac: string; spexWriter: SpexWriter; sacWriter: SacWriter; recordWriter: Writer; remove(): Promise<void> };

const SPEX_SESSION = /^spex-home\/projects\/([^/]+)\/sessions\/([^/]+)\/(session\.json|timeline\/[0-9]+\.ndjson)$/;

export async function writeOneSessionStores(prefix: string): Promise<OneSessionStores> {
  const [record, spex, sac] = ['record', 'spex', 'sac'].map((kind) => makeTempRecord(`${prefix}-${kind}-`)) as [ReturnType<typeof makeTempRecord>, ReturnType<typeof makeTempRecord>, ReturnType<typeof makeTempRecord>];
  const recordWriter = await startWriter(record.dir);
  const spexWriter = await startSpexWriter(spex.dir);
  const sacWriter = await startSacWriter(sac.dir);
  for (const [path, text] of Object.entries(ONE_SESSION_STORES)) {
    const bytes = Buffer.from(text).toString('base64');
    if (path.startsWith('record/')) await recordWriter.send({ op: 'raw', path: path.slice('record/'.length), bytes });
    else if (path.startsWith('sac-store/')) await sacWriter.send({ op: 'raw', path: path.slice('sac-store/'.length), bytes });
    else {
      const [, project, sessionId, file] = SPEX_SESSION.exec(path)!;
      if (file === 'session.json') await spexWriter.send({ op: 'session', project: project!, sessionId: sessionId!, value: JSON.parse(text) as Record<string, unknown> });
      else for (const line of text.split('\n').filter((one) => one !== '')) await spexWriter.send({ op: 'event', project: project!, sessionId: sessionId!, event: JSON.parse(line) as Record<string, unknown> });
    }
  }
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
