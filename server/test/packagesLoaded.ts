import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * The packages a module and its imports, followed through the repository, load when run: every
 * static import, as written in the import statements (types are erased). A dynamic `import()` is
 * not followed: what it loads, it loads when it runs.
 */
export function listPackagesLoaded(entry: string): Set<string> {
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
