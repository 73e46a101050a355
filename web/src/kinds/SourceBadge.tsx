import type { SourceRef } from '../../../shared/wire/common.ts';
import { kindNamed } from './registry.ts';

/**
 * Which store an item or a conversation is from, where a list mixes the stores (the overview's
 * table, the search's hits): its kind's name as the store's id says it, and, on hover, what one of
 * its conversations is and which store of that kind.
 */
export function SourceBadge({ source }: { source: SourceRef }) {
  const words = kindNamed(source.kind)?.conversationWords ?? source.kind;
  return (
    <span className="badge badge-source" title={`${words} (${source.id})`}>
      {source.kind}
    </span>
  );
}
