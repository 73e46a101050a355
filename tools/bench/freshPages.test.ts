import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { readMinorFaults, type PageCost } from './freshPages.mjs';
import { freshPagesRow } from './report.ts';

const FRESH_PAGES = fileURLToPath(new URL('./freshPages.mjs', import.meta.url));

describe('the bench\'s fresh pages', () => {
  it('counts the pages a process touches for the first time, and nothing for memory touched before', () => {
    const bytes = new Uint8Array(new ArrayBuffer(32 * 2 ** 20));
    const before = readMinorFaults();
    bytes.fill(1);
    const fresh = readMinorFaults()! - before!;
    bytes.fill(2);
    const again = readMinorFaults()! - before! - fresh;
    // 8,192 pages of 4 KiB (fewer where the kernel maps larger pages at once).
    assert.ok(fresh >= 1_000, `${fresh} faults for 32 MB touched`);
    assert.ok(again < fresh / 10, `${again} faults for the same 32 MB touched again`);
  });

  it('reads another process\'s count by its id, and says null once it is gone', () => {
    assert.equal(typeof readMinorFaults(process.pid), 'number');
    assert.equal(readMinorFaults(2 ** 22 + 1), null);
  });

  it('prices a page from a fresh process: a new buffer filled once and again', () => {
    const cost = JSON.parse(execFileSync(process.execPath, [FRESH_PAGES], { encoding: 'utf8' })) as PageCost;
    assert.ok(cost.faults >= 1_000 && cost.usPerPage > 0 && cost.firstMs > cost.againMs, JSON.stringify(cost));
  });

  it('sets the measured pages beside the plain read\'s, priced at the run\'s cost of a page', () => {
    const cost: PageCost = { mb: 64, faults: 16_384, firstMs: 170, againMs: 6, usPerPage: 10 };
    const row = freshPagesRow('sac: fresh pages to indexed', [21_000, 20_000, 22_000], [6_000, 7_000, 6_500], 'read-and-split', cost)!;
    assert.equal(row.value, 21_000);
    assert.deepEqual(row.baseline, { value: 6_500, what: 'read-and-split' });
    assert.ok(Math.abs(row.ratio! - 21_000 / 6_500) < 1e-9);
    assert.match(row.note!, /~210 ms of CPU against ~65 ms/);
    assert.equal(freshPagesRow('x', [null], [6_000], 'plain', cost), null, 'no row where the measured process could not be counted');
    assert.match(freshPagesRow('x', [1_000], [2_000], 'plain', null)!.note!, /not priced/);
  });
});
