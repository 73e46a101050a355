import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { SourceKind, SourceRef } from '../../shared/wire/common.ts';

/**
 * A store's id on the wire, for every kind: its kind and the first 8 hex digits of the sha256 of
 * its absolute root, so that a link that names it still holds after a restart, and two stores of
 * one kind have two ids.
 */
export function sourceRefOf<K extends SourceKind>(kind: K, root: string): SourceRef & { kind: K } {
  const digest = createHash('sha256').update(resolve(root)).digest('hex');
  return { kind, id: `${kind}-${digest.slice(0, 8)}` };
}
