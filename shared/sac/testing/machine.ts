import type { ProcessCheck, ProcessState } from '../liveness.ts';

/** The host the example store's agents are filed under: its registry says "vm". */
export const EXAMPLE_HOST = 'vm';

/** The machine the example store was written on, with what a reader found of these pids there. */
export function onExampleHost(states: Iterable<readonly [number, ProcessState]> = []): ProcessCheck {
  return { host: EXAMPLE_HOST, states: new Map(states) };
}

/**
 * A store's files as sac would have written them on a machine named `host`: its registry files
 * each agent under that host where the example's say "vm". A test that starts a reader on this
 * machine writes its stores so, and the writers' pids are then this machine's to look up.
 */
export function writtenOn(host: string, files: Readonly<Record<string, string>>): Record<string, string> {
  const filed = `"host": ${JSON.stringify(host)}`;
  const asWritten = `"host": "${EXAMPLE_HOST}"`;
  return Object.fromEntries(
    Object.entries(files).map(([path, text]) => {
      if (!path.endsWith('registry.json')) return [path, text];
      // On a machine named as the example's, a registry that names no host would pass unchanged, and the test with it.
      if (!text.includes(asWritten)) throw new Error(`${path} files no agent under host "${EXAMPLE_HOST}"`);
      return [path, text.replaceAll(asWritten, () => filed)];
    }),
  );
}
