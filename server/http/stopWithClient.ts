import type { FastifyReply } from 'fastify';

type RequestStop = {
  /** Aborts when the client goes away before its answer. */
  signal: AbortSignal;
  clientGone(): boolean;
  dispose(): void;
};

/**
 * A signal for the work of one request: it aborts when the client goes away before its answer
 * (nobody would read it). A search's time is its pool's to keep (server/search/searchPool.ts):
 * out of time, it answers with what it found.
 */
export function stopWithClient(reply: FastifyReply): RequestStop {
  const controller = new AbortController();
  // The response closes when it has been sent, or when the connection goes first.
  const onClose = () => {
    if (!reply.raw.writableEnded && !controller.signal.aborted) controller.abort(new Error('the client went away'));
  };
  reply.raw.once('close', onClose);
  return {
    signal: controller.signal,
    clientGone: () => controller.signal.aborted,
    dispose() {
      reply.raw.off('close', onClose);
    },
  };
}
