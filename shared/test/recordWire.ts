import { z } from 'zod';
import { recordSearchHitSchema, sessionSummarySchema } from '../wire/record.ts';
import { recordEventSchema, sessionsResponseSchema } from '../wire/conversations.ts';
import { searchResponseSchema } from '../wire/search.ts';

// The wire as a dashboard that reads only a record answers it: every conversation a record
// session, every hit a record entry. Tests of the record parse with these, which also checks
// that nothing of another kind was listed.

export const recordSessionsResponseSchema = sessionsResponseSchema.extend({
  projects: z.array(z.object({ cwd: z.string().nullable(), sessions: z.array(sessionSummarySchema) })),
});

export const recordSearchResponseSchema = searchResponseSchema.extend({ hits: z.array(recordSearchHitSchema) });

export const recordOnlyEventSchema = z.union([
  recordEventSchema.options[0],
  recordEventSchema.options[1],
  recordEventSchema.options[2].extend({ session: sessionSummarySchema }),
  recordEventSchema.options[3].extend({ source: recordEventSchema.options[3].shape.source.extend({ kind: z.literal('record') }) }),
]);
