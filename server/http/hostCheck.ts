import { isIP } from 'node:net';

// Local servers are read by other web pages through DNS rebinding: a name the attacker controls
// is pointed at 127.0.0.1, and the browser sends it as the Host. A name that is not ours is
// refused. IP literals and localhost cannot be rebound, so they are always accepted.
// (Vite learned this in CVE-2025-24010.)

/** The host name of a Host header or URL authority, without port or IPv6 brackets. */
export function hostnameOf(authority: string): string {
  const trimmed = authority.trim().toLowerCase();
  if (trimmed.startsWith('[')) {
    const end = trimmed.indexOf(']');
    return end === -1 ? trimmed : trimmed.slice(1, end);
  }
  const colon = trimmed.lastIndexOf(':');
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}

/** Whether a request naming this host may be answered; `names` are the names we serve as. */
export function isAllowedHostname(hostname: string, names: ReadonlySet<string>): boolean {
  if (hostname === '') return false;
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (isIP(hostname) !== 0) return true;
  return names.has(hostname);
}

/**
 * Whether a browser's Origin header is our own page, whose origin is the Host it asked for.
 * A foreign page may send requests here; it could not read the answers without CORS headers
 * (we send none), and it is given no answer at all.
 */
export function isSameOrigin(origin: string, host: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && url.host === host.trim().toLowerCase();
}
