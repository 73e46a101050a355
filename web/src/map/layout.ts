import { forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY, type SimulationNodeDatum } from 'd3-force';

// Where the map puts its nodes: d3-force (a well-kept layout library, not physics of our own),
// each node pulled to its project's place on a grid, pushed apart by its label's width so that no
// two labels overlap, and drawn to the nodes it talks to. Run to rest before the first paint (a
// few hundred ticks for 200 sessions); a node the map held before keeps its place, so an update
// that adds an edge moves nothing.

export type LaidNode = { key: string; x: number; y: number; radius: number };
type ProjectBox = { project: string | null; x: number; y: number; width: number; height: number };
export type Layout = { nodes: Map<string, LaidNode>; boxes: ProjectBox[]; bounds: { x: number; y: number; width: number; height: number } };

type Input = { key: string; project: string | null; labelChars: number };
type Datum = SimulationNodeDatum & { key: string; radius: number };

const CHAR_PX = 6.6;
const DOT_PX = 7;
const TICKS = 300;
const BOX_PAD = 26;

/** A node's room: its dot, and half its label's width (the label is centered under the dot). */
function radiusOf(labelChars: number): number {
  return Math.max(DOT_PX + 14, (labelChars * CHAR_PX) / 2 + 8);
}

/** Lays the nodes out, grouped by project; `before` holds the places of nodes already shown. */
export function layOut(nodes: readonly Input[], edges: readonly { from: string; to: string }[], before: ReadonlyMap<string, LaidNode> | null): Layout {
  const groups = new Map<string | null, Input[]>();
  for (const node of nodes) {
    const group = groups.get(node.project);
    if (group === undefined) groups.set(node.project, [node]);
    else group.push(node);
  }
  // Projects on a grid, the largest first, each cell as wide as the largest group needs.
  const ordered = [...groups.entries()].sort((a, b) => b[1].length - a[1].length || String(a[0]).localeCompare(String(b[0])));
  const cell = Math.sqrt(Math.max(1, ...ordered.map(([, group]) => group.reduce((sum, node) => sum + (2 * radiusOf(node.labelChars)) ** 2, 0)))) * 1.2 + 120;
  const columns = Math.max(1, Math.ceil(Math.sqrt(ordered.length)));
  const centerOf = new Map<string | null, { x: number; y: number }>(ordered.map(([project], index) => [project, { x: (index % columns) * cell, y: Math.floor(index / columns) * cell }]));

  const data: Datum[] = nodes.map((node, index) => {
    const center = centerOf.get(node.project)!;
    const kept = before?.get(node.key);
    // A new node starts near its project's place, spread by its index so that none start on another.
    const angle = index * 2.399963;
    return { key: node.key, radius: radiusOf(node.labelChars), x: kept?.x ?? center.x + Math.cos(angle) * 20 * Math.sqrt(index % 97), y: kept?.y ?? center.y + Math.sin(angle) * 20 * Math.sqrt(index % 97) };
  });
  const projectOf = new Map(nodes.map((node) => [node.key, node.project]));
  const known = new Set(nodes.map((node) => node.key));
  // Same-project links pull harder: a project's sessions sit together, talking ones nearest.
  const links = edges
    .filter((edge) => edge.from !== edge.to && known.has(edge.from) && known.has(edge.to))
    .map((edge) => ({ source: edge.from, target: edge.to, strength: projectOf.get(edge.from) === projectOf.get(edge.to) ? 0.05 : 0.005 }));
  const simulation = forceSimulation<Datum>(data)
    .force('x', forceX<Datum>((datum) => centerOf.get(projectOf.get(datum.key) ?? null)!.x).strength(0.12))
    .force('y', forceY<Datum>((datum) => centerOf.get(projectOf.get(datum.key) ?? null)!.y).strength(0.12))
    .force('charge', forceManyBody<Datum>().strength(-30).distanceMax(cell / 2))
    .force('link', forceLink<Datum, { source: string; target: string; strength: number }>(links).id((datum) => datum.key).strength((link) => link.strength))
    .force('collide', forceCollide<Datum>((datum) => datum.radius).strength(1).iterations(3))
    .stop();
  // Nodes that were placed before stay near their places: fewer ticks when nothing is new.
  const fresh = before === null ? data.length : data.filter((datum) => !before.has(datum.key)).length;
  if (fresh > 0) simulation.tick(TICKS);

  const laid = new Map<string, LaidNode>(data.map((datum) => [datum.key, { key: datum.key, x: datum.x ?? 0, y: datum.y ?? 0, radius: datum.radius }]));
  const boxes: ProjectBox[] = ordered.map(([project, group]) => {
    const xs = group.map((node) => laid.get(node.key)!);
    const left = Math.min(...xs.map((node) => node.x - node.radius)) - BOX_PAD;
    const right = Math.max(...xs.map((node) => node.x + node.radius)) + BOX_PAD;
    const top = Math.min(...xs.map((node) => node.y - DOT_PX)) - BOX_PAD - 14;
    const bottom = Math.max(...xs.map((node) => node.y + DOT_PX + 16)) + BOX_PAD;
    return { project, x: left, y: top, width: right - left, height: bottom - top };
  });
  const left = Math.min(0, ...boxes.map((box) => box.x));
  const top = Math.min(0, ...boxes.map((box) => box.y));
  const right = Math.max(0, ...boxes.map((box) => box.x + box.width));
  const bottom = Math.max(0, ...boxes.map((box) => box.y + box.height));
  return { nodes: laid, boxes, bounds: { x: left - 20, y: top - 20, width: right - left + 40, height: bottom - top + 40 } };
}
