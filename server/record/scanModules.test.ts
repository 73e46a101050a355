import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// What a scan thread and the command's head start load before they read: every module they
// import, and what those import, as written in their import statements (types are erased).
// Loading zod took a scan thread ~100 ms before it read a file; fastify and the rest of the
// command are what the head start runs beside.

const HERE = dirname(fileURLToPath(import.meta.url));

/** The packages a module and its imports, followed through the repository, load when run. */
function listPackagesLoaded(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    // Static imports that load something: `import type` and `import { type … }`-only lines load nothing.
    for (const match of text.matchAll(/^import\s+(?!type\s)([^'"]*?)\s*from\s+'([^']+)';/gm)) {
      const [, names, from] = match as unknown as [string, string, string];
      if (/^\{\s*(type\s+[\w$]+\s*,?\s*)+\}$/.test(names)) continue;
      if (from.startsWith('.')) visit(resolve(dirname(file), from));
      else if (!from.startsWith('node:')) packages.add(from);
    }
  };
  visit(entry);
  return packages;
}

describe('what the first scan loads before it reads', () => {
  it('a scan thread loads no package: the schemas (zod) only when an entry needs them', () => {
    assert.deepEqual([...listPackagesLoaded(resolve(HERE, 'scanWorker.ts'))], []);
  });

  it('the head start loads no package but the watcher of the record directory (chokidar): not the HTTP server, nor zod', () => {
    assert.deepEqual([...listPackagesLoaded(resolve(HERE, 'scanStart.ts'))], ['chokidar']);
  });
});
