import { pathToFileURL } from 'node:url';
import { readMinorFaults } from './freshPages.mjs';
import { readStorageBytes } from './storageReads.mjs';

// The spex source alone over a home, in a fresh process, as the dashboard holds it: prints
// `{"ready":ms,...}` once the home is indexed, then `{"notice":id,"at":t}` for each notice, with `at`
// on the clock the bench's writer uses (performance.timeOrigin + performance.now()).
// JavaScript, and the source module named by path: the built one (dist/server/spex/spexSource.js)
// is measured as the published command runs it, with no type stripper loaded (~17 MB of RSS alone),
// and `--source` names server/spex/spexSource.ts.

const [modulePath, home] = process.argv.slice(2);
if (modulePath === undefined || home === undefined) {
  process.stderr.write('usage: node spexProcess.mjs <spexSource module> <spexHome>\n');
  process.exit(2);
}
const { createSpexSource } = await import(pathToFileURL(modulePath).href);
const source = createSpexSource({ root: home });
source.subscribe((notice) => {
  if (notice.type !== 'conversation-changed') return;
  // The HTTP layer serializes the summary with each notice: so does this.
  const json = source.conversation(notice.id)?.json ?? '';
  process.stdout.write(`${JSON.stringify({ notice: notice.id, at: performance.timeOrigin + performance.now(), bytes: json.length })}\n`);
});
const started = performance.now();
const cpu = process.cpuUsage();
await source.start();
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
const minorFaults = readMinorFaults();
let conversations = 0;
for (const conversation of source.conversations()) conversations += conversation.json.length > 0 ? 1 : 0;
const listedMs = performance.now() - started;
process.stdout.write(`${JSON.stringify({ ready: ms, cpuMs: (used.user + used.system) / 1000, listedMs, conversations, maxRssBytes: process.resourceUsage().maxRSS * 1024, rssBytes: process.memoryUsage().rss, diskReadBytes: readStorageBytes(), minorFaults })}\n`);
process.stdin.on('data', (chunk) => {
  if (chunk.toString().includes('rss')) process.stdout.write(`${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
});
process.stdin.on('end', () => void source.close().then(() => process.exit(0)));
