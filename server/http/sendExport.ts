import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { ExportFormat } from '../../shared/wire/common.ts';
import type { ExportParts } from '../export/exportParts.ts';
import { exportBytes, exportFileName } from '../export/pipeline.ts';
import type { LoopTurns } from '../sources/loopTurns.ts';

/** What every export of the app shares: the signal that the dashboard is stopping, and the event loop's turns. */
export type ExportWork = { stopping: AbortSignal; turns: LoopTurns };

const MEDIA_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  json: 'application/json; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
};

/**
 * Sends an export as a download, made as it is sent (server/export/pipeline.ts): more is made
 * only when the client has taken what was sent, and the making stops when the client goes away,
 * or when the dashboard stops (`stopping`): an export in flight never holds the close up.
 */
export function sendExport(reply: FastifyReply, parts: ExportParts, format: ExportFormat, itemSchema: z.ZodType, { stopping, turns }: ExportWork, exportedAt = new Date().toISOString()): FastifyReply {
  const stop = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableEnded) stop.abort(new Error('the client went away'));
  };
  reply.raw.once('close', onClose);
  const signal = AbortSignal.any([stop.signal, stopping]);
  const body = Readable.from(exportBytes(parts, format, { exportedAt, itemSchema, signal, turns }), { objectMode: false });
  // A body waiting for its client to take more runs nothing that would see the signal: it is ended.
  const onAbort = () => body.destroy(signal.reason as Error);
  signal.addEventListener('abort', onAbort, { once: true });
  body.once('close', () => {
    reply.raw.off('close', onClose);
    signal.removeEventListener('abort', onAbort);
  });
  body.on('error', (error) => {
    if (!signal.aborted) reply.log.error({ err: error }, 'export failed midway');
  });
  return reply
    .type(MEDIA_TYPES[format])
    .header('content-disposition', `attachment; filename="${exportFileName(parts.name, format)}"`)
    .header('cache-control', 'no-store')
    .send(body);
}
