import type { FastifyReply } from 'fastify';

type RequestStop = {
  /** Aborts when the client goes away before its answer, or when the time is up. */
  signal: AbortSignal;
  timedOut(): boolean;
  clientGone(): boolean;
  dispose(): void;
};

/**
 * A signal for the work of one request: it aborts when the client goes away before its answer
 * (nobody would read it), and after `budgetMs` when there is one.
 */
export function stopWithClient(reply: FastifyReply, budgetMs: number | null): RequestStop {
  const controller = new AbortController();
  let why: 'client' | 'time' | null = null;
  const stop = (reason: 'client' | 'time', message: string) => {
    if (why !== null) return;
    why = reason;
    controller.abort(new Error(message));
  };
  // The response closes when it has been sent, or when the connection goes first.
  const onClose = () => {
    if (!reply.raw.writableEnded) stop('client', 'the client went away');
  };
  reply.raw.once('close', onClose);
  const timer = budgetMs === null ? null : setTimeout(() => stop('time', `out of time after ${budgetMs} ms`), budgetMs);
  return {
    signal: controller.signal,
    timedOut: () => why === 'time',
    clientGone: () => why === 'client',
    dispose() {
      if (timer !== null) clearTimeout(timer);
      reply.raw.off('close', onClose);
    },
  };
}
