import type { SourceRef } from '../../shared/wire/common.ts';
import { sessionSummarySchema, type SessionSummary } from '../../shared/wire/record.ts';
import type { SessionFold } from '../../shared/record/session.ts';
import { projectSummary } from './projection.ts';

type CachedSummary = { summary: SessionSummary; json: string };
export type SummaryCache = (fold: SessionFold) => CachedSummary;

/**
 * A session's summary, validated and serialized once for each fold. The index makes a new fold
 * whenever a session changes, so a fold is the key: a list of 10,000 sessions in which one
 * changed projects, validates and serializes one summary, not 10,000 (bench: /api/sessions at
 * 10,000 sessions spent 15–30 ms in validation and ~20 ms in JSON.stringify per request).
 */
export function createSummaryCache(source: SourceRef): SummaryCache {
  const cache = new WeakMap<SessionFold, CachedSummary>();
  return (fold: SessionFold): CachedSummary => {
    let cached = cache.get(fold);
    if (cached === undefined) {
      const summary = sessionSummarySchema.parse(projectSummary(fold, source));
      cached = { summary, json: JSON.stringify(summary) };
      cache.set(fold, cached);
    }
    return cached;
  };
}
