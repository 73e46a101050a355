import { hostname } from 'node:os';
import { writtenOn } from '../../shared/sac/testing/machine.ts';
import { ONE_SESSION_STORES } from '../../shared/session/testing/oneSessionStores.ts';
import { startThreeWriters, type ThreeStores } from './threeStores.ts';

// The two sessions of shared/examples/one-session (ids that share their first 8 characters), each
// in all three stores, written into temporary folders by each store's own writer process: the
// record's entries as files, spex's lines one append each, sac's files as its CLI left them.

const SPEX_SESSION = /^spex-home\/projects\/([^/]+)\/sessions\/([^/]+)\/(session\.json|timeline\/[0-9]+\.ndjson)$/;

export async function writeOneSessionStores(prefix: string): Promise<ThreeStores> {
  const stores = await startThreeWriters(prefix);
  const { recordWriter, spexWriter, sacWriter } = stores;
  for (const [path, text] of Object.entries(writtenOn(hostname(), ONE_SESSION_STORES))) {
    const bytes = Buffer.from(text).toString('base64');
    if (path.startsWith('record/')) await recordWriter.send({ op: 'raw', path: path.slice('record/'.length), bytes });
    else if (path.startsWith('sac-store/')) await sacWriter.send({ op: 'raw', path: path.slice('sac-store/'.length), bytes });
    else {
      const [, project, sessionId, file] = SPEX_SESSION.exec(path)!;
      if (file === 'session.json') await spexWriter.send({ op: 'session', project: project!, sessionId: sessionId!, value: JSON.parse(text) as Record<string, unknown> });
      else for (const line of text.split('\n').filter((one) => one !== '')) await spexWriter.send({ op: 'event', project: project!, sessionId: sessionId!, event: JSON.parse(line) as Record<string, unknown> });
    }
  }
  return stores;
}
