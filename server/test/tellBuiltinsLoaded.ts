// Preloaded into the command by a test (`--import`): as the command ends its first answer, prints
// on its stdout which of Node's modules that the server never uses it has loaded by then. It takes
// node:http as the server does, without an import: an import would load what it looks for.

const WATCHED = ['internal/deps/undici/undici', 'tls', 'http2', 'zlib', 'internal/crypto/webcrypto', 'internal/fs/streams'];
const http = process.getBuiltinModule('node:http');
const end = http.ServerResponse.prototype.end;
let told = false;
http.ServerResponse.prototype.end = function (this: InstanceType<typeof http.ServerResponse>, ...args: unknown[]) {
  if (!told) {
    told = true;
    // Node's list of the modules of its own it has loaded, which its types do not declare.
    const { moduleLoadList } = process as NodeJS.Process & { moduleLoadList: string[] };
    const loaded = new Set(moduleLoadList.map((line) => line.replace(/^NativeModule /, '')));
    process.stdout.write(`(loaded by the first answer: ${WATCHED.filter((name) => loaded.has(name)).join(', ') || 'none of them'})\n`);
  }
  return (end as (...args: unknown[]) => unknown).apply(this, args);
} as typeof end;
