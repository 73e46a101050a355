import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { EXAMPLE_STORE } from '../../shared/sac/testing/exampleStore.ts';
import { writtenOn } from '../../shared/sac/testing/machine.ts';
import { startSacWriter, type SacWriter } from '../../tools/writer/sacWriter.ts';
import { startSpexWriter, type SpexWriter } from '../../tools/writer/spexWriter.ts';
import { apiFetch } from './dashboard.ts';

// A spex home and a set-agent-comm store in a temp folder, each written by its own real writer
// process (spex's O_APPEND line appends, sac's `send`), for specs that read the two beside a
// record. Never a store in a home directory.

export type SpexHome = { dir: string; writer: SpexWriter };
export type SacStore = { dir: string; writer: SacWriter };

export async function makeStoresFolder(label: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `rec-e2e-${label}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** An empty spex home under `parent`, with its writer. */
export async function makeSpexHome(parent: string): Promise<SpexHome> {
  const dir = path.join(parent, 'spex-home');
  await mkdir(dir);
  return { dir, writer: await startSpexWriter(dir) };
}

/** A session.json as spex writes it, with what a session of the test needs. */
export function spexSessionJson(sessionId: string, title: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { session_id: sessionId, worktree_path: '/e2e/shop', branch: `node/${title}`, title, name: '', parent: '', status: 'active', proposal: '', note: '', harness: 'claude', stopped: false, archived: false, ...fields };
}

/** An empty set-agent-comm store under `parent`, with its writer. */
export async function makeEmptySacStore(parent: string): Promise<SacStore> {
  const dir = path.join(parent, 'sac');
  await mkdir(dir);
  return { dir, writer: await startSacWriter(dir) };
}

/**
 * A set-agent-comm store under `parent` holding the example store sac's own CLI wrote, as if on
 * this machine (writtenOn), with its writer.
 */
export async function makeSacStore(parent: string): Promise<SacStore> {
  const store = await makeEmptySacStore(parent);
  for (const [file, text] of Object.entries(writtenOn(hostname(), EXAMPLE_STORE))) await store.writer.send({ op: 'raw', path: file, bytes: Buffer.from(text).toString('base64') });
  return store;
}

/** A seat's record in registry.json as sac's hooks write it: its session, its writer's pid and when it last checked in. */
export function registrySeat(session: string, pid: number, lastSeen: string, rooms: string[], firstSeen: string) {
  return { session, owner: 1, writers: { [pid]: lastSeen }, rooms, firstSeen, lastSeen };
}

/** The pid of a process that ran and exited: a writer whose session is over. */
export async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/** The ids of the stores a dashboard reads, by kind, once every one of them has been read. */
export async function readSources(url: string): Promise<Map<string, string>> {
  for (let i = 0; i < 400; i++) {
    const list = (await (await apiFetch(`${url}/api/sessions`)).json()) as { sources: { kind: string; id: string; indexing: { state: string } }[] };
    if (list.sources.every((source) => source.indexing.state === 'ready')) return new Map(list.sources.map((source) => [source.kind, source.id]));
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the stores were not read');
}

/** Waits until a conversation of a source holds `count` items. */
export async function waitForConversation(url: string, source: string, id: string, count: number, total: (body: Record<string, unknown>) => number): Promise<void> {
  for (let i = 0; i < 800; i++) {
    const response = await apiFetch(`${url}/api/sessions/${encodeURIComponent(id)}?source=${source}&limit=1`);
    if (response.ok && total((await response.json()) as Record<string, unknown>) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`conversation ${id} of ${source} did not reach ${count} items`);
}
