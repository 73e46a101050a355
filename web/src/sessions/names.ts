// How ids and projects are written short in lists: the full one is always on hover.

export function shortId(sessionId: string): string {
  return sessionId.length > 8 ? sessionId.slice(0, 8) : sessionId;
}

export function projectName(cwd: string | null): string {
  if (cwd === null) return 'no directory named';
  const parts = cwd.split('/').filter((part) => part !== '');
  return parts.at(-1) ?? cwd;
}
