import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { listPackagesLoaded } from '../test/packagesLoaded.ts';

// What a scan thread and the command's head start load before they read: every module they
// import, and what those import, as written in their import statements (types are erased).
// Loading zod took a scan thread ~100 ms before it read a file; fastify and the rest of the
// command are what the head start runs beside.

const HERE = dirname(fileURLToPath(import.meta.url));

describe('what the first scan loads before it reads', () => {
  it('a scan thread loads no package: the schemas (zod) only when an entry needs them', () => {
    assert.deepEqual([...listPackagesLoaded(resolve(HERE, 'scanWorker.ts'))], []);
  });

  it('the head start loads no package but the watcher of the record directory (chokidar): not the HTTP server, nor zod', () => {
    assert.deepEqual([...listPackagesLoaded(resolve(HERE, 'scanStart.ts'))], ['chokidar']);
  });
});
