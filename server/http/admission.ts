import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { RETRY_AFTER_S, SEARCH_THREADS, SEARCH_WAITING } from '../search/searchPool.ts';

// A queue of its own for each kind of heavy work (searches, exports): a few run at once, a few
// wait, and any more are refused with a 503 and `retry-after` before any of their work starts,
// decided as the request arrives, before its query is even read. Pages, items and the event
// stream take no place in any queue: they are never behind a search or an export.
//
// A place is held while the answer is sent, and a client that stops taking bytes (a download
// paused, a process that connects and reads nothing) would hold it for as long as it keeps its
// connection open, and every request waiting behind it with it. So a request whose client has
// taken no bytes for a while, with its answer waiting for it to, loses its place to one that
// waits: its answer is cut, as an answer whose client went away is. While nobody waits, a paused
// download keeps its place.

/** Searches: as many run as there are search threads; while they gather candidates, the event loop is theirs in slices. */
export const SEARCH_QUEUE: AdmissionOptions = { work: 'searches', running: SEARCH_THREADS, waiting: SEARCH_WAITING, retryAfterSeconds: RETRY_AFTER_S };
/**
 * Exports: they are made on the event loop, an item at a turn of it (server/sources/loopTurns.ts),
 * and hold their buffers and sockets while their clients take the bytes: two at once; a third
 * gets its bytes no sooner than after one of them. One waiting holds only its
 * socket, so eight may: a person downloading from every tab, or ten clients taking one large
 * conversation, are served in turn rather than refused.
 */
export const EXPORT_QUEUE: AdmissionOptions = { work: 'exports', running: 2, waiting: 8, retryAfterSeconds: RETRY_AFTER_S };

/** How long a client may take no bytes of an answer that waits for it before its place goes to one waiting. */
const STALLED_MS = 10_000;

type AdmissionOptions = {
  /** What is queued, in words for a refusal: "searches", "exports". */
  work: string;
  /** How many run at once. */
  running: number;
  /** How many may wait for a place; more are refused. */
  waiting: number;
  /** When a refused request is worth sending again, in seconds. */
  retryAfterSeconds: number;
  /** How long a client may take no bytes while its answer waits for it, before its place goes to one waiting (STALLED_MS). */
  stalledMs?: number;
};

/** A place in the queue, taken at once. */
type Ticket = {
  /** Resolves when the work may start; rejects with the signal's reason when it aborts while waiting. */
  start(signal: AbortSignal): Promise<void>;
  /** Gives the place back (to the next in line). Once; later calls do nothing. */
  leave(): void;
};

export type Admission = {
  /** A place, or null when `running` run and `waiting` wait already: the request is refused. */
  enter(): Ticket | null;
  /**
   * The route hook (`onRequest`) that takes a place for the request's whole life, given back
   * when its response closes (sent whole, or its client gone): a refusal is answered there,
   * before the route validates its query or does anything else.
   */
  admit: onRequestAsyncHookHandler;
  /**
   * Gives back the place `admit` took for the request before its response closes: its work is
   * done and only its answer is left to send. A search's place is its thread's: held while its
   * hits were serialized in turns and taken by its client, it kept the next search off an idle
   * thread. Nothing when the request holds no place.
   */
  leave(request: FastifyRequest): void;
  /** Running and waiting now, refused so far, and cut so far: answers whose client took no bytes while another waited. */
  describe(): { running: number; waiting: number; refused: number; cut: number };
};

/** A request holding a place while its answer is sent, as last seen taking bytes. */
type Holder = { response: ServerResponse; sent: number; since: number };

/**
 * The bytes handed to the response's connection so far: they grow while its client takes bytes,
 * and stop while its answer waits for the client (the response's buffer full, `writableNeedDrain`).
 */
function sentBy(holder: Holder): number {
  return holder.response.socket?.bytesWritten ?? holder.sent;
}

export function createAdmission(options: AdmissionOptions): Admission {
  /** The places `admit` took, by request, until each is given back. */
  const admitted = new WeakMap<FastifyRequest, { ticket: Ticket; holder: Holder }>();
  let running = 0;
  let refused = 0;
  let cut = 0;
  const waiting: { resolve: () => void }[] = [];
  const stalledMs = options.stalledMs ?? STALLED_MS;
  /** The requests `admit` let in, while their answers are under way. */
  const holders = new Set<Holder>();
  /** Those cut whose responses have not closed yet: their places are still to be handed on. */
  const cutting = new Set<Holder>();
  let watch: NodeJS.Timeout | null = null;

  /**
   * While a request waits, looks at those holding places: one whose client has taken no bytes
   * for `stalledMs` while its answer waits for it to (the response's buffer is full) is cut, and
   * its place goes to the next in line when its response closes. An answer that makes no bytes
   * (its work still reading) is not waiting for its client and is never cut.
   */
  function watchHolders(): void {
    if (watch !== null) return;
    // Stalled is counted from now: a download paused while nobody waited had every right to be.
    const started = performance.now();
    for (const holder of holders) {
      holder.sent = sentBy(holder);
      holder.since = started;
    }
    watch = setInterval(() => {
      if (waiting.length === 0) {
        clearInterval(watch!);
        watch = null;
        return;
      }
      const now = performance.now();
      const stalled: Holder[] = [];
      for (const holder of holders) {
        const sent = sentBy(holder);
        if (sent !== holder.sent || !holder.response.writableNeedDrain) {
          holder.sent = sent;
          holder.since = now;
        } else if (now - holder.since >= stalledMs) stalled.push(holder);
      }
      // As many as wait for a place, beside those cut whose places are not yet handed on; the
      // longest stalled first.
      stalled.sort((a, b) => a.since - b.since);
      for (const holder of stalled.slice(0, Math.max(0, waiting.length - cutting.size))) {
        holders.delete(holder);
        cutting.add(holder);
        cut++;
        holder.response.destroy(new Error(`its client took none of its waiting bytes for ${stalledMs} ms while another request waited for its place`));
      }
    }, Math.min(1_000, Math.max(10, stalledMs / 4)));
    watch.unref();
  }

  /** Hands a place given back to the next in line, or frees it. */
  function handOn(): void {
    const next = waiting.shift();
    if (next === undefined) running--;
    else next.resolve();
  }

  function enter(): Ticket | null {
    if (running >= options.running && waiting.length >= options.waiting) {
      refused++;
      return null;
    }
    let state: 'queued' | 'placed' | 'left' = 'queued';
    let turn: Promise<void>;
    const waiter = { resolve: () => {} };
    if (running < options.running) {
      running++;
      state = 'placed';
      turn = Promise.resolve();
    } else {
      turn = new Promise<void>((resolve) => {
        waiter.resolve = () => {
          if (state === 'queued') state = 'placed';
          resolve();
        };
      });
      waiting.push(waiter);
      watchHolders();
    }
    const leave = () => {
      if (state === 'left') return;
      const had = state;
      state = 'left';
      if (had === 'placed') handOn();
      else waiting.splice(waiting.indexOf(waiter), 1);
    };
    return {
      async start(signal) {
        signal.throwIfAborted();
        if (state === 'left') throw new Error('the place was given back before its work started');
        if (state === 'placed') return;
        await new Promise<void>((resolve, reject) => {
          const onAbort = () => {
            leave();
            reject(signal.reason);
          };
          signal.addEventListener('abort', onAbort, { once: true });
          void turn.then(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          });
        });
      },
      leave,
    };
  }

  return {
    enter,
    async admit(request, reply) {
      const ticket = enter();
      if (ticket === null) return sendBusy(reply, options);
      const holder: Holder = { response: reply.raw, sent: 0, since: performance.now() };
      holder.sent = sentBy(holder);
      admitted.set(request, { ticket, holder });
      // The response closes when it has been sent whole, or when its client goes first.
      const closed = new AbortController();
      reply.raw.once('close', () => {
        holders.delete(holder);
        cutting.delete(holder);
        ticket.leave();
        closed.abort(new Error('the client went away'));
      });
      try {
        await ticket.start(closed.signal);
      } catch {
        // Its client went away while it waited: nothing is left to answer.
        return reply.code(499).send();
      }
      holder.since = performance.now();
      holders.add(holder);
      return undefined;
    },
    leave(request) {
      const place = admitted.get(request);
      if (place === undefined) return;
      // What is left to send holds no place, so it is never cut for one waiting.
      holders.delete(place.holder);
      place.ticket.leave();
    },
    describe: () => ({ running, waiting: waiting.length, refused, cut }),
  };
}

function sendBusy(reply: FastifyReply, options: AdmissionOptions): FastifyReply {
  return reply
    .code(503)
    .header('retry-after', String(options.retryAfterSeconds))
    .send({ error: 'busy', message: `too many ${options.work} at once (${options.running} running, ${options.waiting} waiting); try again in ${options.retryAfterSeconds} s` });
}
