import { defineConfig } from '@playwright/test';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { E2E_TOKEN } from './support/dashboard.ts';

// End-to-end tests drive the real command (dist/, so run `npm run build` first) and a real
// writer process. Browsers cannot be downloaded here: Debian's Chromium is used.
export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  // Two workers, one spec file each at a time, on two cores. A third was tried: the tests wait on
  // the page, the writer and the watcher for much of their time, but on an idle runner the tier
  // took 9.3 min with three against 8.0–8.7 with two. See docs/development.md, "The suite's time".
  workers: 2,
  fullyParallel: false,
  // Bounds that stop a hang, never a claim about speed (that is the bench's): a two-core runner
  // shared with other work, recording a trace of every test, takes several times as long as an
  // idle one, and a tighter bound fails tests that would pass.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env['CI'] ? [['list']] : [['list']],
  // One folder per checkout: Playwright empties it when it starts, so two checkouts running e2e at
  // once must not share it.
  outputDir: path.join(tmpdir(), `rec-dashboard-e2e-results-${createHash('sha256').update(import.meta.dirname).digest('hex').slice(0, 8)}`),
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  use: {
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
    timezoneId: 'UTC',
    locale: 'en-GB',
    // A failure leaves its trace (the page's DOM, network and console at each step) in outputDir:
    // `npx playwright show-trace <outputDir>/<test>/trace.zip`. Without the screencast, which cost
    // more than the DOM snapshots and failed long tests on a loaded two-core runner.
    // REC_E2E_TRACE=off records none: CI keeps a failure's output, never its files, and recording
    // cost the suite about a seventh of its CPU.
    trace: process.env['REC_E2E_TRACE'] === 'off' ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    // Every dashboard started by these tests requires this token (see support/dashboard.ts).
    extraHTTPHeaders: { authorization: `Bearer ${E2E_TOKEN}` },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
