import type { PendingWindow } from '../../shared/evidence.ts';
import type { SourceKind } from '../../shared/wire/common.ts';
import type { RecordHeadStart } from '../record/scanStart.ts';
import { recordStore } from '../record/recordStore.ts';
import { sacStore } from '../sac/sacStore.ts';
import type { SearchPool } from '../search/searchPool.ts';
import { spexStore } from '../spex/spexStore.ts';
import type { LoopTurns } from './loopTurns.ts';
import type { Source } from './source.ts';
import { declareSecretStores, type SecretPlace } from '../watch/secretFiles.ts';

// The server's registry of store kinds: how the command finds a store of each kind, names it, and
// makes its source. A kind's entry is one module of its own folder (`server/<kind>/<kind>Store.ts`),
// light enough to load before the rest of the command: its source is loaded only when a store of
// the kind is read. A new kind adds its folder and a line here; the command line, the usage, the
// recognition of a directory and the dashboard take it from this list.

/**
 * A store the command was given: its kind and its root directory, and for a record the first
 * scan the command began before the rest of it loaded (server/record/scanStart.ts).
 */
export type StoreSpec = { kind: SourceKind; root: string; headStart?: RecordHeadStart | null };

type SourceOptions = PendingWindow & {
  root: string;
  headStart?: RecordHeadStart | null;
  reconcileIntervalMs?: number;
  onError?: (message: string) => void;
  /** The search threads every source of the dashboard shares; a source alone makes its own. */
  searchPool?: SearchPool;
  /**
   * The event loop's turns every request's work shares (server/sources/loopTurns.ts): a page's
   * reads take them a file at a time. A source alone has its own.
   */
  turns?: LoopTurns;
};

type SourceFactory = (options: SourceOptions) => Source;

export type StoreKind<K extends SourceKind = SourceKind> = {
  kind: K;
  /** The command's words for a store of the kind: "the spex home". */
  words: string;
  /** What a directory of the kind holds, as the usage and a refusal say it. */
  holds: { name: string; what: string };
  /** Whether a directory (its names listed) holds a store of the kind, by what it holds and nothing else. */
  recognize(dir: string, names: readonly string[]): boolean;
  /** `--<name> [DIR]`: a store of the kind at the place given, or else at its default place. */
  option?: { name: string; help: string; defaultPlace(): string };
  /**
   * The names at a store's root it keeps private (each a prefix, in any case: sac's secrets and
   * their copies). No reader of any store opens another name of such a file
   * (server/watch/secretFiles.ts).
   */
  secretPrefixes?: readonly string[];
  /** Begins reading before the rest of the command loads (the record's first scan). */
  begin?(root: string, onError: (message: string) => void): RecordHeadStart | null;
  /** The kind's source: loaded when a store of the kind is read. */
  loadSource(): Promise<SourceFactory>;
};

/** Each kind's entry: the type demands one for every kind the wire names (SOURCE_KINDS). */
const BY_KIND: { [K in SourceKind]: StoreKind<K> } = { record: recordStore, spex: spexStore, sac: sacStore };

/** Every kind, in the order a directory is recognised: the most particular first, the record last. */
export const STORE_KINDS: readonly StoreKind[] = [BY_KIND.sac, BY_KIND.spex, BY_KIND.record];

export function storeKindOf(kind: SourceKind): StoreKind {
  return BY_KIND[kind];
}

/**
 * Declares the secrets of the stores given to every reader of every store, this thread's and the
 * threads started afterwards: called before any store is read.
 */
export function declareStoresSecrets(stores: readonly StoreSpec[]): void {
  const places: SecretPlace[] = [];
  for (const store of stores) {
    const prefixes = BY_KIND[store.kind].secretPrefixes;
    if (prefixes !== undefined) places.push({ root: store.root, prefixes });
  }
  declareSecretStores(places);
}
