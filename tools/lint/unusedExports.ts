import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// Fails when product code exports a name that no other file uses: an export is a promise that
// something else needs it, and a name nothing needs is either kept private or gone. Part of
// `npm run lint`. Tests, tools and e2e count as users (a helper exported for its test is used).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PRODUCT = ['shared', 'server', 'web/src'];
const USERS = ['shared', 'server', 'web/src', 'tools', 'e2e'];
const EXPORT = /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|type|interface|class|enum)\s+([A-Za-z_$][\w$]*)/gm;

function listSources(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(path);
    }
  };
  walk(join(ROOT, dir));
  return found;
}

function isProduct(path: string): boolean {
  const rel = relative(ROOT, path);
  return !/\.test\.tsx?$/.test(rel) && !rel.includes('/testing/') && !rel.startsWith('shared/test/') && !rel.startsWith('server/test/');
}

const users = USERS.flatMap(listSources);
const texts = new Map(users.map((path) => [path, readFileSync(path, 'utf8')]));
const unused: string[] = [];
for (const path of PRODUCT.flatMap(listSources).filter(isProduct)) {
  const text = texts.get(path)!;
  for (const match of text.matchAll(EXPORT)) {
    const name = match[1]!;
    const word = new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`);
    let used = false;
    for (const [other, otherText] of texts) {
      if (other !== path && word.test(otherText)) {
        used = true;
        break;
      }
    }
    if (!used) unused.push(`${relative(ROOT, path)}: ${name}`);
  }
}
if (unused.length > 0) {
  process.stderr.write(`Exported, but used by no other file (keep it private, or remove it):\n${unused.map((line) => `  ${line}\n`).join('')}`);
  process.exit(1);
}
