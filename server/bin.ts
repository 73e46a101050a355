#!/usr/bin/env node
// The command's entry point. It checks the Node version before anything is imported, because
// the watcher needs Node 22.22 and an older Node would fail with a less helpful error.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  console.error(`rec-dashboard: needs Node.js 22.22 or newer, and this is ${process.version}. Get one from https://nodejs.org/en/download (or, with nvm: nvm install 24) and run it again.`);
  process.exit(1);
}
const { main } = await import('./cli.ts');
await main(process.argv.slice(2));
