import assert from 'node:assert/strict';
import { test } from 'node:test';
import { timeSpanWindowOf } from './timeWindow.ts';

const at = (iso: string) => Date.parse(iso);

test('a span meets a window when any instant of it is in the window; an open side reaches as far as it may', () => {
  const inSpan = timeSpanWindowOf({ from: '2026-11-20T09:00:00Z', to: '2026-11-20T10:00:00Z' })!;
  assert.equal(inSpan(at('2026-11-20T08:00:00Z'), at('2026-11-20T09:00:00Z')), true, 'touching its start');
  assert.equal(inSpan(at('2026-11-20T08:00:00Z'), at('2026-11-20T08:59:59Z')), false);
  assert.equal(inSpan(at('2026-11-20T10:00:01Z'), Infinity), false);
  assert.equal(inSpan(-Infinity, Infinity), true);
  assert.equal(timeSpanWindowOf({}), null);
});
