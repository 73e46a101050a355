// Run first by `npm start`, `npm run build` and `npm test`: the build and the tests run TypeScript
// files as Node 22.22 and later run them (type stripping). An older Node would fail at the first
// .ts file with a stack trace; this says what to do in one line. Plain JavaScript, so that an old
// Node can run it; the command itself (server/bin.ts) checks the same once built.
const [major = 0, minor = 0] = process.version.slice(1).split('.').map(Number);
if (major < 22 || (major === 22 && minor < 22)) {
  console.error(`rec-dashboard: needs Node.js 22.22 or newer, and this is ${process.version}. Get one from https://nodejs.org/en/download (or, with nvm: nvm install 24), or see the README's "Before you start", and run it again.`);
  process.exit(1);
}
