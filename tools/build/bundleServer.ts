import { chmodSync, readFileSync, readdirSync, rmSync } from 'node:fs';
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

/** The files loaded by their place at run time, and those the bench imports (spexSource, sacSource). */
const ENTRIES = [
  'server/bin',
  'server/record/scanWorker',
  'server/record/readerThread',
  'server/record/recordTexts',
  'server/watch/wholeReadWorker',
  'server/watch/readFilesThread',
  'server/record/entryFingerprint',
  'server/search/searchThread',
  'server/spex/spexTexts',
  'server/spex/spexSource',
  'server/sac/sacSource',
  'server/sac/sacTexts',
  'server/watch/appendScanWorker',
  'server/demo/demoTraffic',
  'server/demo/entryFile',
  'shared/record/entry',
  'shared/sac/storeFiles',
  'shared/sac/seatFile',
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

/**
 * Modules a dependency requires at its top but the server never uses: fastify loads HTTP/2 and
 * HTTPS (and with them TLS) for servers this one never makes (~35 ms of a start's CPU), and
 * semver, whose ~40 regular expressions and ranges are built as it loads (a few ms), to check the
 * fastify version a plugin asks for, which none of the server's does.
 */
const LOADED_ON_USE = ['node:http2', 'node:https', 'semver'];

/**
 * A dependency's `require` of an unused module gives an object that loads the module on its
 * first use, so that it loads only if it is used after all. A bundled package (semver) stays in
 * the bundle, evaluated when first asked for.
 */
function loadUnusedModulesOnUse(): Plugin {
  const required = new RegExp(`require\\((['"])(${LOADED_ON_USE.join('|')})\\1\\)`, 'g');
  return {
    name: 'load-unused-modules-on-use',
    transform: {
      filter: { id: /\/node_modules\//, code: new RegExp(required.source) },
      handler(code) {
        const rendered = new RolldownMagicString(code);
        for (const match of code.matchAll(required)) {
          const name = JSON.stringify(match[2]);
          rendered.overwrite(match.index, match.index + match[0].length, `new Proxy({}, { get: (_, key) => require(${name})[key] })`);
        }
        return { code: rendered };
      },
    },
  };
}

/**
 * Node's modules taken with `process.getBuiltinModule` rather than imported. An `import` of one
 * makes its ES module facade, which reads every export, and so loads what a lazy getter would
 * load only on use: `node:http`'s loads undici (for `WebSocket`, `EventSource`), ~55 ms of a
 * start's CPU; `node:fs`'s its streams, `node:crypto`'s the Web Crypto API, `node:util`'s more.
 * Each chunk's `import { a as b } from "node:x"` becomes `const { a: b } = process.getBuiltinModule("node:x")`,
 * in the same place: the chunk's imports of its own chunks still load before its body, as before.
 * Bound as the body runs, not before, such a name would be unset if a chunk that imports this
 * one ran first and called into it: only a cycle of chunks does that, and the build refuses one.
 */
function takeBuiltinsUnfaced(): Plugin {
  const statement = /^import\s+(.+?)\s+from\s+"(node:[\w/]+)";$/gm;
  return {
    name: 'take-builtins-unfaced',
    renderChunk(code) {
      if (!/^import\s.+\sfrom\s+"node:/m.test(code)) return null;
      const rendered = new RolldownMagicString(code);
      for (const match of code.matchAll(statement)) {
        rendered.overwrite(match.index, match.index + match[0].length, bindBuiltin(match[1]!, match[2]!, this.error.bind(this)));
      }
      return rendered;
    },
    generateBundle(_options, bundle) {
      const imports = new Map(Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file.imports] as const] : [])));
      const done = new Set<string>();
      const visit = (name: string, path: string[]) => {
        if (path.includes(name)) this.error(`chunks import each other (${[...path.slice(path.indexOf(name)), name].join(' -> ')}): Node's modules taken in a chunk's body would be unset in a cycle`);
        if (done.has(name)) return;
        for (const imported of imports.get(name) ?? []) visit(imported, [...path, name]);
        done.add(name);
      };
      for (const name of imports.keys()) visit(name, []);
    },
  };
}

/** The bindings of an import clause (`x`, `* as x`, `{ a as b, c }`, `x, { … }`), taken from the module itself. */
function bindBuiltin(clause: string, name: string, fail: (message: string) => never): string {
  const taken = `process.getBuiltinModule(${JSON.stringify(name)})`;
  const parts = /^(?:(?:\*\s+as\s+)?([\w$]+))?\s*,?\s*(?:\{([^}]*)\})?$/.exec(clause.trim());
  if (parts === null || (parts[1] === undefined && parts[2] === undefined)) fail(`an import of ${name} the build cannot rewrite: import ${clause}`);
  const [, whole, named] = parts!;
  const names = named
    ?.split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => part.replace(/^([\w$]+)\s+as\s+([\w$]+)$/, '$1: $2'));
  if (whole === undefined) return `const { ${names!.join(', ')} } = ${taken};`;
  return names === undefined ? `const ${whole} = ${taken};` : `const ${whole} = ${taken}, { ${names.join(', ')} } = ${whole};`;
}

/**
 * Packages fastify requires only inside the functions that use them, which the server never
 * calls: its own compilers (the app gives every route zod's), its logger (the app runs without
 * one) and `inject` (tests call it on the source, never on the bundle). Bundled, they were half
 * of the 1.3 MB chunk that every start reads, checks against its compile cache and deserializes
 * (10-15 ms of a start's CPU, medians of two sets of twelve alternated starts; 1.4 MB of its peak).
 */
const NEVER_LOADED = ['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'ajv', 'ajv-formats', 'fast-json-stringify', 'pino', 'light-my-request'];
const NEVER_LOADED_ID = '\0never-loaded:';

/** Each package left out is a module that says so if it is ever loaded, rather than a wrong answer. */
function leaveOutNeverLoaded(): Plugin {
  return {
    name: 'leave-out-never-loaded',
    resolveId(source) {
      return NEVER_LOADED.includes(source) ? NEVER_LOADED_ID + source : null;
    },
    load(id) {
      if (!id.startsWith(NEVER_LOADED_ID)) return null;
      const name = id.slice(NEVER_LOADED_ID.length);
      return `throw new Error(${JSON.stringify(`${name} is left out of the server's bundle (tools/build/bundleServer.ts): the server was not meant to load it`)});`;
    },
  };
}

/**
 * The bundled dependencies' licence notices, one file beside the bundle (dist/THIRD-PARTY-LICENSES.txt),
 * and a check that every bundled file is ASCII.
 */
function gatherNotices(): Plugin {
  return {
    name: 'gather-notices',
    generateBundle(_options, bundle) {
      const packages = new Map<string, string>();
      for (const file of Object.values(bundle)) {
        if (file.type !== 'chunk') continue;
        if (/[^\x00-\x7f]/.test(file.code)) this.error(`${file.fileName} holds characters beyond ASCII: Node would decode it slowly`);
        for (const id of file.moduleIds) {
          const match = /^(.*\/node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(id);
          if (match !== null) packages.set(match[2]!, match[1]!);
        }
      }
      const notices = [...packages].sort(([a], [b]) => a.localeCompare(b)).map(([name, dir]) => {
        const license = readdirSync(dir).find((file) => /^licen[cs]e/i.test(file));
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string; license?: string };
        const text = license === undefined ? `(no licence file in the package; its package.json names ${pkg.license ?? 'none'})` : readFileSync(join(dir, license), 'utf8').trim();
        return `${name} ${pkg.version}\n\n${text}\n`;
      });
      this.emitFile({ type: 'asset', fileName: 'THIRD-PARTY-LICENSES.txt', source: `The server in dist/server bundles these packages, under these licences.\n\n${notices.join('\n---\n\n')}` });
    },
  };
}

/**
 * The modules the source names by place (`new URL(\`./scanWorker${ext}\`, import.meta.url)`), each
 * as an entry would name it. A thread whose script is not an entry fails only when it starts, and
 * one that falls back to the main thread (a first scan's second thread) would not fail at all.
 */
function findPlacesNamed(): string[] {
  const places = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'test' && entry.name !== 'testing') walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        for (const match of readFileSync(join(ROOT, path), 'utf8').matchAll(/new URL\(`(\.{1,2}\/[\w./-]+)\$\{/g)) {
          places.add(relative(ROOT, join(ROOT, dirname(path), match[1]!)));
        }
      }
    }
  };
  walk('server');
  walk('shared');
  return [...places].sort();
}

const unlisted = findPlacesNamed().filter((place) => !ENTRIES.includes(place));
if (unlisted.length > 0) {
  console.error(`bundleServer: loaded by their place at run time, but not entries of the bundle: ${unlisted.join(', ')} (add them to ENTRIES)`);
  process.exit(1);
}

// What an earlier build wrote goes: chunks are named by their content, and a stale one would stay.
rmSync(join(OUT, 'server'), { recursive: true, force: true });
rmSync(join(OUT, 'shared'), { recursive: true, force: true });
rmSync(join(OUT, 'THIRD-PARTY-LICENSES.txt'), { force: true });
await build({
  cwd: ROOT,
  input: Object.fromEntries(ENTRIES.map((entry) => [entry, join(ROOT, `${entry}.ts`)])),
  platform: 'node',
  external: [...builtinModules, /^node:/],
  plugins: [leaveOutNeverLoaded(), keepModulePlaces(), loadUnusedModulesOnUse(), takeBuiltinsUnfaced(), gatherNotices()],
  output: {
    dir: OUT,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'server/chunks/[name]-[hash].js',
    sourcemap: true,
    // ASCII only: Node decodes a module's bytes to text before compiling it, and a file with a
    // single other character takes its slow path (the dashboard's chunk: ~85 ms, against 10-30).
    // Comments go with that: the dependencies' notices are gathered in one file instead.
    charset: 'ascii',
    comments: { legal: false, annotation: true, jsdoc: false },
  },
});
// The command runs by its first line, which passes node its options: `npm start` runs it as npx
// does, so it must be executable here as it is once installed.
chmodSync(join(OUT, 'server', 'bin.js'), 0o755);
