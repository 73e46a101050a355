import type { PageCost } from './freshPages.mjs';
import { median } from './stats.ts';

// One row of the bench's table: a figure, the baseline it was taken beside, and the target.

export type Unit = 'ms' | 'µs' | 'MB' | 'MB/s' | '%' | 'files' | 'count';

export type Row = {
  measure: string;
  value: number;
  unit: Unit;
  /** The same thing done the plainest way, measured in the same run. */
  baseline?: { value: number; what: string };
  /** value / baseline. */
  ratio?: number;
  /** The target, in words, and whether it was met (null: no target, only a figure). */
  target?: string;
  met?: boolean | null;
  note?: string;
};

export function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return '—';
  switch (unit) {
    case 'ms':
      return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : value >= 100 ? `${Math.round(value)} ms` : `${value.toFixed(1)} ms`;
    case 'µs':
      return `${value.toFixed(2)} µs`;
    case 'MB':
      return `${Math.round(value)} MB`;
    case 'MB/s':
      return `${value.toFixed(1)} MB/s`;
    case '%':
      return `${value.toFixed(2)} %`;
    case 'files':
    case 'count':
      return value.toLocaleString('en-US');
  }
}

export function formatTable(rows: readonly Row[]): string {
  const header = ['measure', 'rec-dashboard', 'baseline', 'ratio', 'target', ''];
  const lines = rows.map((row) => [
    row.measure,
    formatValue(row.value, row.unit),
    row.baseline === undefined ? '' : `${formatValue(row.baseline.value, row.unit)} ${row.baseline.what}`,
    row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}×`,
    row.target ?? '',
    row.met === undefined || row.met === null ? '' : row.met ? 'ok' : 'MISSED',
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const render = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  const out = [render(header), widths.map((w) => '─'.repeat(w)).join('  ')];
  for (const [i, line] of lines.entries()) {
    out.push(render(line));
    const note = rows[i]!.note;
    if (note !== undefined) out.push(`    ${note}`);
  }
  return out.join('\n');
}

/** What a measured process and its plain counterpart read from storage rather than the page cache, for a row's note. */
export function storageNote(measured: unknown, plain: unknown): string {
  const mb = (bytes: unknown) => (typeof bytes === 'number' ? `${Math.round(bytes / 2 ** 20)} MB` : 'not counted');
  return `read from storage ${mb(measured)} (the plain read ${mb(plain)})`;
}

/**
 * The fresh pages a measured process and its plain counterpart touched (their minor page faults,
 * from each one's start), as a row beside the time's: what keeping, or growing a heap to, more
 * memory than the plain read cost, at this run's price of a page (null: not measured).
 */
export function freshPagesRow(measure: string, measured: readonly (number | null)[], plain: readonly (number | null)[], plainWhat: string, pageCost: PageCost | null): Row | null {
  const counted = (faults: readonly (number | null)[]) => faults.filter((n): n is number => n !== null);
  if (counted(measured).length === 0 || counted(plain).length === 0) return null;
  const value = median(counted(measured));
  const base = median(counted(plain));
  const cpu = (faults: number) => (pageCost === null || !Number.isFinite(pageCost.usPerPage) ? null : Math.round((faults * pageCost.usPerPage) / 1000));
  const priced = cpu(value) === null ? 'not priced (no page cost measured)' : `at this run's ${pageCost!.usPerPage.toFixed(1)} µs a page, ~${cpu(value)} ms of CPU against ~${cpu(base)} ms`;
  return {
    measure,
    value,
    unit: 'count',
    baseline: { value: base, what: plainWhat },
    ratio: value / base,
    note: `minor page faults from each process's start, every thread, at the median; ${priced}; per run: ${measured.map((n, i) => `${n ?? '—'} against ${plain[i] ?? '—'}`).join(', ')}`,
  };
}
