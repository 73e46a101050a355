import { registerHooks } from 'node:module';

// Preloaded into the command by a test (`--import`): prints a line on the command's stdout as
// the server's app module loads, so that the order of what the command prints and of what it
// loads can be read from one stream.

registerHooks({
  load(url, context, nextLoad) {
    if (url.endsWith('/server/dashboard.ts')) process.stdout.write('(loading server/dashboard.ts)\n');
    return nextLoad(url, context);
  },
});
