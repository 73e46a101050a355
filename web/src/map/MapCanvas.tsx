import { memo, useCallback, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent, type WheelEvent, type CSSProperties } from 'react';
import type { MapEdge, MapNode, MapResponse } from '../../../shared/wire/map.ts';
import { useRouter } from '../router/Router.tsx';
import { TITLE_INSET, type LaidNode } from './layout.ts';
import { titleOf, usePaneShape, useStableLayout } from './usePaneLayout.ts';
import { isBroadcastEdge, isRefusedEdge, labelNode, nameEdge, nameNode, nodeMatches, pathOfNode, tallyEdge, weighEdge } from './mapWords.ts';
import { countOf } from '../text/count.ts';

// The map drawn as SVG: a box per project, a dot and a label per node, an arrow per edge (curved,
// so that a → b and b → a are both seen). Every node is a link to its session, every edge a button
// that lists its messages; each has an accessible name with the full ids and the counts. The
// arrows are one stop of the Tab order, moved through with the arrow keys, Home and End. The wheel
// zooms, a drag pans, and "Fit" shows it all again. At 200 sessions × 20 peers there are 4,000
// edges: each is a memoized row, drawn again only when its own counts, place, pulse or selection
// change (the query keeps an unchanged edge the same object), so a new message redraws one edge.
// An edge's name is said once, in its aria-label; the edge under the pointer or focus is named in
// one line below the map rather than by 4,000 tooltips.

type Props = { map: MapResponse; pulsing: ReadonlySet<string>; selected: string | null; onSelectEdge(from: string, to: string): void };
type ViewBox = { x: number; y: number; width: number; height: number };

/** Room around the nodes found, when they are shown. */
const FOUND_MARGIN = 60;

export function MapCanvas({ map, pulsing, selected, onSelectEdge }: Props) {
  const { navigate } = useRouter();
  const navigateTo = useRef(navigate);
  navigateTo.current = navigate;
  const openNode = useCallback((path: string) => navigateTo.current(path), []);
  const selectEdge = useRef(onSelectEdge);
  selectEdge.current = onSelectEdge;
  const onSelect = useCallback((from: string, to: string) => selectEdge.current(from, to), []);
  const byKey = useMemo(() => new Map(map.nodes.map((node) => [node.key, node])), [map.nodes]);
  const svg = useRef<SVGSVGElement>(null);
  // While an arrow's messages are open the pane's shape is held: they take room beside the drawing,
  // and laid out again for it, the map moved the arrow just clicked away from the pointer.
  const aspect = usePaneShape(svg, selected !== null);
  const layout = useStableLayout(map, aspect);
  const byPlace = useMemo(
    () =>
      map.nodes
        .flatMap((node) => {
          const laid = layout.nodes.get(node.key);
          return laid === undefined ? [] : [{ node, laid }];
        })
        .sort((a, b) => a.laid.y - b.laid.y || a.laid.x - b.laid.x),
    [map.nodes, layout],
  );
  const [view, setView] = useState<ViewBox | null>(null);
  // A new shape of the pane lays every box out anew: a zoom on the old places would show others.
  const [viewAspect, setViewAspect] = useState(aspect);
  if (viewAspect !== aspect) {
    setViewAspect(aspect);
    setView(null);
  }
  const shown = view ?? layout.bounds;
  // Nodes found by the words in the find box: lit, the rest dimmed, Enter shows them.
  const [find, setFind] = useState('');
  const found = useMemo(() => (find.trim() === '' ? null : new Set(map.nodes.filter((node) => nodeMatches(node, find)).map((node) => node.key))), [map.nodes, find]);
  const showFound = () => {
    const places = [...(found ?? [])].flatMap((key) => layout.nodes.get(key) ?? []);
    if (places.length === 0) return;
    const [left, right] = [Math.min(...places.map((laid) => laid.x - laid.radius)), Math.max(...places.map((laid) => laid.x + laid.radius))];
    const [top, bottom] = [Math.min(...places.map((laid) => laid.y)), Math.max(...places.map((laid) => laid.y + 24))];
    // Never closer than a pane of 400 × 250: one node found is shown among its neighbours.
    const width = Math.max(400, right - left + 2 * FOUND_MARGIN);
    const height = Math.max(250, bottom - top + 2 * FOUND_MARGIN);
    setView({ x: (left + right) / 2 - width / 2, y: (top + bottom) / 2 - height / 2, width, height });
  };
  const [pointed, setPointed] = useState<string | null>(null);
  const onPoint = (event: { target: EventTarget }) => setPointed(edgeKeyAt(event.target));
  const drag = useRef<{ x: number; y: number; view: ViewBox } | null>(null);
  // The arrows are one stop of the Tab order (the one chosen, or the first), moved through with
  // the arrow keys: 200 sessions' arrows one Tab each came before every node.
  const [focused, setFocused] = useState<string | null>(null);
  // Only an arrow whose two ends are laid out is drawn (EdgeArrow), and so can have the focus.
  const drawn = useMemo(() => map.edges.filter((edge) => layout.nodes.has(edge.from) && layout.nodes.has(edge.to)), [map.edges, layout]);
  const tabbable = [focused, selected].find((key) => key !== null && drawn.some((edge) => edge.key === key)) ?? drawn[0]?.key ?? null;
  const onEdgeKeys = (event: KeyboardEvent<SVGGElement>) => {
    // A key with a modifier is the browser's (Alt+Left is Back).
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity }[event.key];
    const at = drawn.findIndex((edge) => edge.key === edgeKeyAt(event.target));
    if (step === undefined || at < 0) return;
    event.preventDefault();
    const next = drawn[Number.isFinite(step) ? (at + step + drawn.length) % drawn.length : step < 0 ? 0 : drawn.length - 1]!;
    setFocused(next.key);
    svg.current?.querySelector<SVGGElement>(`[data-edge="${CSS.escape(next.key)}"]`)?.focus();
  };

  const onWheel = (event: WheelEvent<SVGSVGElement>) => {
    const box = svg.current?.getBoundingClientRect();
    if (box === undefined || box.width === 0) return;
    const scale = event.deltaY > 0 ? 1.15 : 1 / 1.15;
    const px = shown.x + ((event.clientX - box.left) / box.width) * shown.width;
    const py = shown.y + ((event.clientY - box.top) / box.height) * shown.height;
    setView({ x: px - (px - shown.x) * scale, y: py - (py - shown.y) * scale, width: shown.width * scale, height: shown.height * scale });
  };
  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.target !== event.currentTarget) return;
    drag.current = { x: event.clientX, y: event.clientY, view: shown };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const start = drag.current;
    const box = svg.current?.getBoundingClientRect();
    if (start === null || box === undefined || box.width === 0) return;
    const perPx = Math.max(start.view.width / box.width, start.view.height / box.height);
    setView({ ...start.view, x: start.view.x - (event.clientX - start.x) * perPx, y: start.view.y - (event.clientY - start.y) * perPx });
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  // + and − zoom on the arrow opened, which stays where it is on screen, as the wheel zooms on the
  // point under it (a reader's pan is kept); an arrow opened out of view is brought to the middle.
  // With none opened, on the middle of what is shown. (Zoomed on the middle, a busy map lost the
  // arrow being read in a tangle of lines with no node in view.)
  const zoom = (factor: number) => {
    const edge = selected === null ? undefined : drawn.find((one) => one.key === selected);
    const [from, to] = edge === undefined ? [] : [layout.nodes.get(edge.from), layout.nodes.get(edge.to)];
    const middle = { x: shown.x + shown.width / 2, y: shown.y + shown.height / 2 };
    const arrow = from !== undefined && to !== undefined ? { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 } : null;
    const inView = arrow !== null && arrow.x >= shown.x && arrow.x <= shown.x + shown.width && arrow.y >= shown.y && arrow.y <= shown.y + shown.height;
    const at = arrow === null ? middle : arrow;
    // Kept in place: the point's share of the view's width and height stays the same.
    const [shareX, shareY] = arrow !== null && !inView ? [0.5, 0.5] : [(at.x - shown.x) / shown.width, (at.y - shown.y) / shown.height];
    setView({ x: at.x - shown.width * factor * shareX, y: at.y - shown.height * factor * shareY, width: shown.width * factor, height: shown.height * factor });
  };

  return (
    <div className="map-canvas">
      <div className="map-tools">
        <div className="map-find">
          <input
            type="search"
            value={find}
            placeholder="Find: id, seat, address"
            aria-label="Find nodes on the map"
            aria-describedby="map-found"
            onChange={(event) => setFind(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              showFound();
            }}
          />
          <span id="map-found" className="muted" role="status">
            {found === null ? '' : found.size === 0 ? 'none found' : `${countOf(found.size, 'node')} found · Enter shows ${found.size === 1 ? 'it' : 'them'}`}
          </span>
        </div>
        <div className="map-zoom">
          <button type="button" onClick={() => setView(null)}>
            Fit
          </button>
          <button type="button" aria-label="Zoom in" onClick={() => zoom(2 / 3)}>
            +
          </button>
          <button type="button" aria-label="Zoom out" onClick={() => zoom(1.5)}>
            −
          </button>
        </div>
      </div>
      <svg
        ref={svg}
        className="map-svg"
        role="group"
        aria-label="Map of who talks to whom"
        viewBox={`${shown.x} ${shown.y} ${shown.width} ${shown.height}`}
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
      >
        <defs>
          {/* In the map's own units, not the stroke's: a busy edge is thicker, its head is not (a head
              as wide as seven strokes of a busy edge covered the names it points at). */}
          <marker id="map-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" className="map-arrow" />
          </marker>
        </defs>
        {layout.boxes.map((box) => (
          <g key={box.project ?? ''} className="map-project">
            <rect x={box.x} y={box.y} width={box.width} height={box.height} rx={10} />
          </g>
        ))}
        <g
          className="map-edges"
          role="group"
          aria-label="Arrows: one stop of the Tab order, the arrow keys move between them"
          onPointerOver={onPoint}
          onFocus={(event) => {
            onPoint(event);
            setFocused(edgeKeyAt(event.target));
          }}
          onPointerLeave={() => setPointed(null)}
          onBlur={() => setPointed(null)}
          onKeyDown={onEdgeKeys}
        >
          {map.edges.map((edge) => (
            <EdgeArrow
              key={edge.key}
              edge={edge}
              from={layout.nodes.get(edge.from)}
              to={layout.nodes.get(edge.to)}
              nodes={byKey}
              pulsing={pulsing.has(edge.key)}
              dimmed={found !== null && !found.has(edge.from) && !found.has(edge.to)}
              selected={selected === edge.key}
              tabbable={tabbable === edge.key}
              onSelect={onSelect}
            />
          ))}
        </g>
        {/* A project's name is drawn over the edges that cross its box, as a node's is. */}
        <g className="map-project-names">
          {layout.boxes.map((box) => (
            <text key={box.project ?? ''} x={box.x + TITLE_INSET} y={box.y + 16}>
              {titleOf(box.project)}
            </text>
          ))}
        </g>
        {/* In the order they are seen, row by row: the Tab order follows the page, not the ids. */}
        <g className="map-nodes">
          {byPlace.map(({ node, laid }) => (
            <NodeDot key={node.key} node={node} laid={laid} found={found === null ? null : found.has(node.key)} onOpen={openNode} />
          ))}
        </g>
      </svg>
      {/* The arrow pointed at or focused; else the one opened, whose messages are listed. */}
      <PointedEdge map={map} edgeKey={pointed ?? selected} nodes={byKey} />
    </div>
  );
}

/** `found`: whether the find box's words find it; null while the box is empty. */
const NodeDot = memo(function NodeDot({ node, laid, found, onOpen }: { node: MapNode; laid: LaidNode; found: boolean | null; onOpen(path: string): void }) {
  const path = pathOfNode(node);
  const className = found === null ? 'map-node' : found ? 'map-node found' : 'map-node dimmed';
  const name = nameNode(node);
  const dot = (
    <>
      <title>{name}</title>
      <circle cx={laid.x} cy={laid.y} r={7} className={`map-dot map-dot-${node.party.type}`} />
      <text x={laid.x} y={laid.y + 20} textAnchor="middle" className="map-label">
        {labelNode(node)}
      </text>
    </>
  );
  if (path === null) {
    return (
      <g className={className} role="img" aria-label={name} data-node={node.key}>
        {dot}
      </g>
    );
  }
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpen(path);
  };
  return (
    <a href={path} className={className} aria-label={name} data-node={node.key} onClick={open}>
      {dot}
    </a>
  );
});

type EdgeProps = {
  edge: MapEdge;
  from: LaidNode | undefined;
  to: LaidNode | undefined;
  nodes: ReadonlyMap<string, MapNode>;
  pulsing: boolean;
  /** Neither end is found by the find box's words. */
  dimmed: boolean;
  selected: boolean;
  /** The arrows' one stop in the Tab order. */
  tabbable: boolean;
  onSelect(from: string, to: string): void;
};

const EdgeArrow = memo(function EdgeArrow({ edge, from, to, nodes, pulsing, dimmed, selected, tabbable, onSelect }: EdgeProps) {
  if (from === undefined || to === undefined) return null;
  const name = nameEdge(edge, nodes);
  const d = curveBetween(from, to);
  const width = 1 + Math.log2(1 + weighEdge(edge));
  const onKey = (event: KeyboardEvent<SVGGElement>) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSelect(edge.from, edge.to);
    }
  };
  const classes = ['map-edge', isRefusedEdge(edge) ? 'refused' : '', isBroadcastEdge(edge) ? 'broadcast' : '', pulsing ? 'pulse' : '', dimmed ? 'dimmed' : '', selected ? 'selected' : ''].filter((one) => one !== '').join(' ');
  return (
    <g className={classes} role="button" tabIndex={tabbable ? 0 : -1} aria-label={name} aria-pressed={selected} data-edge={edge.key} data-messages={tallyEdge(edge)} onClick={() => onSelect(edge.from, edge.to)} onKeyDown={onKey}>
      <path d={d} className="map-edge-hit" />
      {/* Its width as a variable too: a pulse draws it thicker than itself, whatever it is. */}
      <path d={d} className="map-edge-line" strokeWidth={width} style={{ '--edge-width': width } as CSSProperties} markerEnd="url(#map-arrow)" />
    </g>
  );
});

/** The key of the edge an event's target is part of, if any. */
function edgeKeyAt(target: EventTarget): string | null {
  return target instanceof Element ? (target.closest('[data-edge]')?.getAttribute('data-edge') ?? null) : null;
}

/**
 * The edge under the pointer or focus, named in words (what its aria-label says), on a line of its
 * own under the drawing: laid over it, it hid the names of the lowest box's nodes.
 */
function PointedEdge({ map, edgeKey, nodes }: { map: MapResponse; edgeKey: string | null; nodes: ReadonlyMap<string, MapNode> }) {
  const edge = edgeKey === null ? undefined : map.edges.find((one) => one.key === edgeKey);
  return (
    <p className="map-pointed" aria-hidden="true">
      {edge === undefined ? <span className="muted">Point at an arrow, or Tab to one, to read it here.</span> : nameEdge(edge, nodes)}
    </p>
  );
}

/** A curve from one dot's edge to the other's, bent to its left: a → b and b → a do not lie on each other. */
function curveBetween(from: LaidNode, to: LaidNode): string {
  if (from.key === to.key) return `M${from.x},${from.y - 7} c 30,-40 -30,-40 0,0`;
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / length, dy / length];
  const start = { x: from.x + ux * 9, y: from.y + uy * 9 };
  const end = { x: to.x - ux * 9, y: to.y - uy * 9 };
  const bend = Math.min(40, length / 6);
  const control = { x: (start.x + end.x) / 2 + uy * bend, y: (start.y + end.y) / 2 - ux * bend };
  return `M${start.x},${start.y} Q${control.x},${control.y} ${end.x},${end.y}`;
}
