import { memo, useMemo, useState } from 'react';
import type { MapEdge, MapNode, MapResponse } from '../../../shared/wire/map.ts';
import { rankIn } from '../app/keptOrder.ts';
import { Link } from '../router/Router.tsx';
import { Time } from '../time/Time.tsx';
import { describeCount, describeParty, labelNode, nameEdge, nameNode, pathOfNode, writeParty } from './mapWords.ts';

// The map as a list: every edge in a row, the latest first, with its two ends written whole and
// each store's count on a line of its own, as the drawing's names say them. It is the map for a
// keyboard, a screen reader or a map too busy to read at its size; "Messages" opens the same list
// of an edge's messages as a click on its arrow.

type Props = { map: MapResponse; selected: string | null; onSelectEdge(from: string, to: string): void };

export function EdgeList({ map, selected, onSelectEdge }: Props) {
  const nodes = useMemo(() => new Map(map.nodes.map((node) => [node.key, node])), [map.nodes]);
  // The latest first; an edge no store dates last. Under the pointer the order is kept, as the
  // sidebar keeps its own: a live write does not move the row about to be clicked (a new edge
  // comes last meanwhile).
  const [kept, setKept] = useState<readonly string[] | null>(null);
  const latestFirst = useMemo(() => map.edges.toSorted((a, b) => (b.latestAt ?? '').localeCompare(a.latestAt ?? '')), [map.edges]);
  const edges = useMemo(() => {
    if (kept === null) return latestFirst;
    const rank = rankIn(kept);
    return latestFirst.toSorted((a, b) => rank(a.key) - rank(b.key));
  }, [kept, latestFirst]);
  return (
    <table className="map-list" onPointerEnter={() => setKept(edges.map((edge) => edge.key))} onPointerLeave={() => setKept(null)}>
      <caption>Every edge, the latest first: who a message went from and to, as each store states it</caption>
      <thead>
        <tr>
          <th scope="col">From</th>
          <th scope="col">To</th>
          <th scope="col">As each store states it</th>
          <th scope="col">Latest</th>
          <th scope="col">Its messages</th>
        </tr>
      </thead>
      <tbody>
        {edges.map((edge) => (
          <EdgeRow key={edge.key} edge={edge} from={nodes.get(edge.from)} to={nodes.get(edge.to)} nodes={nodes} selected={selected === edge.key} onSelect={onSelectEdge} />
        ))}
      </tbody>
    </table>
  );
}

type RowProps = { edge: MapEdge; from: MapNode | undefined; to: MapNode | undefined; nodes: ReadonlyMap<string, MapNode>; selected: boolean; onSelect(from: string, to: string): void };

/** A row, drawn again only when its edge, its ends or its selection change (the query keeps an unchanged edge the same object). */
const EdgeRow = memo(function EdgeRow({ edge, from, to, nodes, selected, onSelect }: RowProps) {
  return (
    <tr className={selected ? 'selected' : undefined} data-edge={edge.key}>
      <td data-label="From">
        <Party node={from} fallback={edge.from} />
      </td>
      <td data-label="To">
        <Party node={to} fallback={edge.to} />
      </td>
      <td data-label="As each store states it">
        <ul className="map-list-counts">
          {edge.counts.map((count) => (
            <li key={`${count.source.id}\n${count.seenFrom}`} className={count.notQueued + count.rejected > 0 ? 'map-refused' : undefined}>
              {describeCount(count)}
            </li>
          ))}
        </ul>
      </td>
      <td data-label="Latest">{edge.latestAt === null ? <span className="muted">no time</span> : <Time at={edge.latestAt} />}</td>
      <td>
        <button type="button" aria-pressed={selected} aria-label={`Messages of ${nameEdge(edge, nodes)}`} onClick={() => onSelect(edge.from, edge.to)}>
          Messages
        </button>
      </td>
    </tr>
  );
});

/** An end of an edge, written whole: a session's full id (and its seat), a person, a peer as its store wrote it (in quotes); a link where it is a conversation held here. */
function Party({ node, fallback }: { node: MapNode | undefined; fallback: string }) {
  if (node === undefined) return <code>{fallback}</code>;
  const words = describeParty(node);
  const label = labelNode(node);
  // The seat on a line of its own, whole: broken where the column ended, "api-service#f13453 8c" read as two names.
  const seat = node.party.type === 'session' && label !== words && !label.includes('…') ? <span className="muted map-list-seat"> ({label})</span> : null;
  const path = pathOfNode(node);
  // A peer as its store wrote it is in quotes, as on the drawing and in its legend: `web-app` as
  // written is not the project web-app.
  const text = node.party.type === 'session' ? <code className="full-id">{words}</code> : writeParty(node);
  return (
    <span title={nameNode(node)}>
      {path === null ? text : <Link to={path}>{text}</Link>}
      {seat}
    </span>
  );
}
