import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

// Another user on the same machine cannot read your record files, and must not read them
// through your dashboard either: every request carries the access token, as a cookie once the
// browser has been given one, or as `Authorization: Bearer` from an API client. The address the
// command prints carries the token once (`?token=`); the first visit trades it for an HttpOnly,
// SameSite=Strict cookie and drops it from the address bar.

export function createAccessToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The cookie is named per port: cookies are shared by every port of a host. */
export function accessCookieName(port: number): string {
  return `rec-dashboard-${port}`;
}

type AccessDecision =
  | { type: 'allow' }
  /** A valid token in the address: set the cookie and send the browser on without it. */
  | { type: 'exchange'; location: string }
  | { type: 'deny' };

/** Decides a request. `token` null means access control is off (`--no-token`). */
export function decideAccess(request: FastifyRequest, token: string | null): AccessDecision {
  if (token === null) return { type: 'allow' };
  const authorization = request.headers.authorization;
  // The scheme's name is case-insensitive (RFC 9110, 11.1); the token is compared exactly.
  if (authorization !== undefined && authorization.slice(0, 7).toLowerCase() === 'bearer ' && sameToken(authorization.slice(7), token)) {
    return { type: 'allow' };
  }
  const cookie = readCookie(request.headers.cookie, accessCookieName(request.socket.localPort ?? 0));
  if (cookie !== null && sameToken(cookie, token)) return { type: 'allow' };
  const url = new URL(request.url, 'http://placeholder');
  const offered = url.searchParams.get('token');
  if (offered !== null && sameToken(offered, token) && request.method === 'GET') {
    url.searchParams.delete('token');
    // A path that begins with two slashes would send the browser to another host
    // (`/.//evil.example` is `//evil.example` once resolved): the cookie's redirect stays here.
    return { type: 'exchange', location: `/${url.pathname.replace(/^\/+/, '')}${url.search}` };
  }
  return { type: 'deny' };
}

/**
 * Sets the cookie and sends the browser on to `location` (a path of this dashboard). A browser
 * does not send a SameSite=Strict cookie on a redirect of a navigation another site began (the
 * page `--open` writes, a file, sends it here): it would land on the page that asks for the
 * token. There, the answer is a page of this dashboard's own that moves on by itself, a
 * navigation this site begins, with the cookie.
 */
export function sendAccessCookie(reply: FastifyReply, request: FastifyRequest, token: string, location: string): FastifyReply {
  const name = accessCookieName(request.socket.localPort ?? 0);
  reply.header('set-cookie', `${name}=${token}; HttpOnly; SameSite=Strict; Path=/`).header('cache-control', 'no-store');
  if (request.headers['sec-fetch-site'] !== 'cross-site') return reply.redirect(location, 303);
  return reply.code(200).type('text/html; charset=utf-8').send(pageMovingOnTo(location));
}

/** A page that sends the browser on to `address` by itself (a meta refresh), with a link for one that does not. */
export function pageMovingOnTo(address: string): string {
  const href = address.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>rec-dashboard</title></head>\n<body><p><a href="${href}">Open rec-dashboard</a></p></body></html>\n`;
}

export function sendAccessDenied(reply: FastifyReply, request: FastifyRequest): FastifyReply {
  reply.code(401).header('cache-control', 'no-store');
  if (request.url.startsWith('/api/')) {
    return reply.send({
      error: 'unauthorized',
      message: 'This rec-dashboard needs its access token: send "Authorization: Bearer <token>", with the token from the address rec-dashboard printed.',
    });
  }
  return reply.type('text/html; charset=utf-8').send(DENIED_PAGE);
}

const DENIED_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>rec-dashboard: access token needed</title></head>
<body>
<h1>This rec-dashboard needs its access token</h1>
<p>Open the address that <code>rec-dashboard</code> printed when it started: it ends in
<code>?token=…</code>. Your browser then keeps the token in a cookie for this address.</p>
<p>Lost it? Stop rec-dashboard and start it again for a new address, or give your own token with
<code>--token &lt;token&gt;</code>.</p>
</body></html>
`;

function sameToken(offered: string, token: string): boolean {
  const a = Buffer.from(offered);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readCookie(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
