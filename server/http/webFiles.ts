import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Send = typeof import('@fastify/send').send;

/**
 * Answers a GET or HEAD for the built UI (dist/web): its file, or, for any other path, its page,
 * which routes itself. The file server (@fastify/send, with mime) is loaded by the first such
 * request, not at start: loading it, with @fastify/static and its glob of the folder, was ~80 ms
 * of a start's CPU before the first answer, which is an API call.
 */
export function createWebFiles(webRoot: string): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
  let loading: Promise<Send> | null = null;

  return async (request, reply) => {
    const send = await (loading ??= import('@fastify/send').then((module) => module.send));
    // Asked each time: a build replaces the folder.
    const root = await realpath(webRoot);
    const path = await findFileWithin(root, pathOf(request.url));
    // Everything but a file of the folder (a deep link, a folder, a dot file, a missing file) is the page.
    const sent = path === null ? null : await send(request.raw, encodeURI(path), { root, index: false, dotfiles: 'ignore' });
    if (sent?.type === 'file') return reply.code(sent.statusCode).headers(sent.headers).send(sent.stream);
    const page = await send(request.raw, '/index.html', { root, index: false });
    if (page.type !== 'file') return reply.code(404).type('text/plain; charset=utf-8').send('The web UI\'s index.html is gone. Run `npm run build`.\n');
    return reply.code(page.statusCode).headers(page.headers).type('text/html; charset=utf-8').send(page.stream);
  };
}

/** The URL's path, decoded; null when it cannot be decoded. */
function pathOf(url: string): string | null {
  const path = url.split('?', 1)[0]!;
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/**
 * The path, relative to the folder, of the file a URL's path names once every symbolic link is
 * followed, when that file is inside the folder: a link that leads out of it is never served.
 */
async function findFileWithin(root: string, path: string | null): Promise<string | null> {
  if (path === null || path.includes('\0')) return null;
  let real: string;
  try {
    real = await realpath(join(root, path));
  } catch {
    return null;
  }
  return real.startsWith(root + sep) ? real.slice(root.length).split(sep).join('/') : null;
}
