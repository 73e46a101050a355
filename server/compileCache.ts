import { enableCompileCache } from 'node:module';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';

// V8's code for the bundle, kept between starts (Node's module compile cache): the second start
// compiles the server's 1.3 MB of JavaScript from a cache rather than anew. It is an
// optimisation, never needed: a cache that cannot be written or read is simply not used, and
// Node itself neither throws nor says anything then.

type CachePlace = { env: NodeJS.ProcessEnv; platform: NodeJS.Platform; home: string };

/**
 * The compile cache's directory, in the user's cache directory for the platform; null when it
 * would be in or above a store the command reads (a store is never written, nor anything put in it).
 * NODE_COMPILE_CACHE, Node's own setting, names another; NODE_DISABLE_COMPILE_CACHE turns it off.
 */
export function chooseCompileCacheDir(storeRoots: readonly string[], { env, platform, home }: CachePlace): string | null {
  if (env['NODE_DISABLE_COMPILE_CACHE']) return null;
  const dir = resolve(env['NODE_COMPILE_CACHE'] || join(userCacheDir({ env, platform, home }), 'rec-dashboard', 'compile-cache'));
  return storeRoots.some((root) => isWithin(dir, resolve(root)) || isWithin(resolve(root), dir)) ? null : dir;
}

/** Turns the compile cache on for this process and the threads and processes it starts, outside every store. */
export function startCompileCache(storeRoots: readonly string[]): void {
  const dir = chooseCompileCacheDir(storeRoots, { env: process.env, platform: process.platform, home: homedir() });
  if (dir === null) return;
  const enabled = enableCompileCache(dir);
  // Threads inherit the setting by the environment: a scan thread compiles its script from the cache too.
  if (enabled.directory !== undefined) process.env['NODE_COMPILE_CACHE'] = enabled.directory;
}

function userCacheDir({ env, platform, home }: CachePlace): string {
  if (platform === 'darwin') return join(home, 'Library', 'Caches');
  if (platform === 'win32') return env['LOCALAPPDATA'] || join(home, 'AppData', 'Local');
  const xdg = env['XDG_CACHE_HOME'];
  return xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, '.cache');
}

function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
