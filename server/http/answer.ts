import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { LoopTurns } from '../sources/loopTurns.ts';
import { JsonBytes, NotHere, type Source } from '../sources/source.ts';
import { sendInSteps } from './answerInSteps.ts';
import { stopWithClient } from './stopWithClient.ts';

export function sendNotFound(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(404).send({ error: 'not-found', message });
}

/**
 * Asks a source for one request's answer and sends it: a value (checked and serialized by the
 * route's response schema, a long list a slice a turn: server/http/answerInSteps.ts), bytes the
 * source made itself, or a 404 with the source's reason. The source's work stops when the client
 * goes away, and nobody is answered then.
 */
export async function sendAnswer(reply: FastifyReply, turns: LoopTurns, ask: (signal: AbortSignal) => Promise<unknown>): Promise<FastifyReply> {
  const stop = stopWithClient(reply);
  let answer: unknown;
  try {
    answer = await ask(stop.signal);
  } catch (error) {
    if (stop.clientGone()) return reply.code(499).send();
    throw error;
  } finally {
    stop.dispose();
  }
  if (answer instanceof NotHere) return sendNotFound(reply, answer.why);
  if (answer instanceof JsonBytes) {
    return reply.type('application/json; charset=utf-8').header('content-length', answer.bytes).send(Readable.from(answer.chunks, { objectMode: false }));
  }
  return sendInSteps(reply, answer, turns);
}

/** The stores a dashboard reads, found by id or by a conversation they hold. */
export type SourceLookup = ReturnType<typeof createSourceLookup>;

export function createSourceLookup(sources: readonly Source[]) {
  const byId = (id: string): Source | null => sources.find((source) => source.ref.id === id) ?? null;
  return {
    byId,
    /** Why an id names no source here. */
    unknownWords: () => `no such source here: this dashboard reads ${sources.map((source) => source.ref.id).join(', ')}`,
    /**
     * The source a route without a source in its path answers from: the one `?source=` names;
     * without it, the first source (in the order the command was given them) that holds a
     * conversation of that id, or else the first. Nothing joins on a prefix of an id.
     */
    holding(id: string, asked: string | undefined): Source | null {
      if (asked !== undefined) return byId(asked);
      return sources.find((source) => source.conversation(id) !== null) ?? sources[0] ?? null;
    },
  };
}
