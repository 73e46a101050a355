import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, RolldownMagicString, type Plugin } from 'rolldown';

// Builds the server for the published package: a few bundled files rather than the ~120 modules
// tsc emitted, with the dependencies inside them. Resolving and loading those modules one by one
// (ours and node_modules', with their package.json lookups) was a third of a start's time before
// the first answer.
//
// Every file the server loads by its place (a thread's script, a module a thread imports by URL,
// the demo's writer process) is an entry, written where tsc wrote it: dist/server/record/scanWorker.js
// and so on. What the entries share goes to dist/server/chunks/.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = join(ROOT, 'dist');

/** The files loaded by their place at run time, and the one the bench imports (spexSource). */
const ENTRIES = [
  'server/bin',
  'server/record/scanWorker',
  'server/record/readerThread',
  'server/record/recordTexts',
  'server/watch/wholeReadWorker',
  'server/search/searchThread',
  'server/spex/spexTexts',
  'server/spex/spexSource',
  'server/sac/sacTexts',
  'server/demo/demoTraffic',
  'server/demo/entryFile',
  'shared/record/entry',
  'shared/sac/storeFiles',
];

const MODULE_PLACE = '__recModulePlace';

/**
 * `import.meta.url` keeps naming the module's own place in dist/ (server/record/scanPool.js),
 * whichever bundled file it ends up in: the server finds its threads' scripts beside it by URL.
 */
function keepModulePlaces(): Plugin {
  return {
    name: 'keep-module-places',
    transform: {
      filter: { code: 'import.meta.url' },
      handler(code, id) {
        if (!id.startsWith(ROOT) || id.includes('/node_modules/')) return null;
        const place = relative(ROOT, id).replace(/\.ts$/, '.js');
        return { code: new RolldownMagicString(code).replaceAll('import.meta.url', `${MODULE_PLACE}(${JSON.stringify(place)})`) };
      },
    },
    renderChunk(code, chunk) {
      if (!code.includes(MODULE_PLACE)) return null;
      const from = dirname(chunk.fileName);
      const rendered = new RolldownMagicString(code);
      for (const match of code.matchAll(new RegExp(`${MODULE_PLACE}\\("([^"]+)"\\)`, 'g'))) {
        const path = relative(from, match[1]!);
        rendered.overwrite(match.index, match.index + match[0].length, `new URL(${JSON.stringify(path.startsWith('.') ? path : `./${path}`)}, import.meta.url).href`);
      }
      return rendered;
    },
  };
}

await build({
  cwd: ROOT,
  input: Object.fromEntries(ENTRIES.map((entry) => [entry, join(ROOT, `${entry}.ts`)])),
  platform: 'node',
  external: [...builtinModules, /^node:/],
  plugins: [keepModulePlaces()],
  output: {
    dir: OUT,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'server/chunks/[name]-[hash].js',
    sourcemap: true,
  },
});
