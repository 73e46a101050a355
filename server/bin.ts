#!/usr/bin/env -S node --max-semi-space-size=2
// The command's entry point. It checks the Node version before anything is imported, because
// the watcher needs Node 22.22 and an older Node would fail with a less helpful error.
//
// The first line gives the main thread a young generation of 2 MB semi-spaces, where V8 grows
// them to 32 MB on a machine with memory to spare. The index the first scan builds survives
// whole, so each collection of the young generation copied up to 32 MB of it: 60–200 ms in one
// pause, while every notice and request waited (docs/performance.md, "The seventh round"). In
// small ones, the pauses are a few ms, the collector's CPU is no more, and the peak RSS is lower.
// `npm start` runs this file by its first line too; `env -S` splits it (coreutils 8.30, macOS).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  console.error(`rec-dashboard: needs Node.js 22.22 or newer, and this is ${process.version}. Get one from https://nodejs.org/en/download (or, with nvm: nvm install 24) and run it again.`);
  process.exit(1);
}
const { main } = await import('./cli.ts');
await main(process.argv.slice(2));
