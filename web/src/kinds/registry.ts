import type { ConversationSummary, SearchHit } from '../../../shared/wire/kinds.ts';
import type { AnyKind, Kind, KindName } from './kind.ts';
import { recordKind } from './record/recordKind.tsx';
import { sacKind } from './sac/sacKind.tsx';
import { spexKind } from './spex/spexKind.tsx';

// The kinds of store the browser shows. Each kind's folder gives what it shows in one place (its
// `<kind>Kind.tsx`); the shell renders whatever is listed here. A new kind is a folder of its own
// and a line here (its wire, in shared/, is the server's side).

const KINDS: { readonly [K in KindName]: Kind<K> } = {
  record: recordKind,
  spex: spexKind,
  sac: sacKind,
};

/** A kind by its name (a source id's first part); null for a kind this browser does not know. */
export function kindNamed(name: string): AnyKind | null {
  // Each kind is given only what is of that kind: its name is what the summary, hit or id says.
  return Object.hasOwn(KINDS, name) ? (KINDS[name as KindName] as unknown as AnyKind) : null;
}

/** The kind a conversation or a hit is of. */
export function kindOf(of: ConversationSummary | SearchHit): AnyKind {
  return kindNamed(of.source.kind)!;
}

/** Every kind, with its name. */
export function listKinds(): readonly (readonly [KindName, AnyKind])[] {
  return (Object.keys(KINDS) as KindName[]).map((name) => [name, kindNamed(name)!] as const);
}
