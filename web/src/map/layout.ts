import { forceLink, forceManyBody, forceSimulation, forceX, forceY, type SimulationNodeDatum } from 'd3-force';

// Where the map puts its nodes. d3-force (a well-kept layout library, not physics of our own)
// finds which nodes belong near which: each pulled to its project's center and drawn to the nodes
// it talks to, for a few dozen ticks. Its places are then read as an order and set on rows inside
// the project's box, each node as wide as its label: no two labels overlap whatever the force
// left, and the work is the same at any count of edges. Deterministic (d3-force's own seeded
// jiggle, starting places by index), so the same nodes are always laid out the same way; the map
// lays out again only when its nodes change.

export type LaidNode = { key: string; x: number; y: number; radius: number };
type ProjectBox = { project: string | null; x: number; y: number; width: number; height: number };
export type Layout = { nodes: Map<string, LaidNode>; boxes: ProjectBox[]; bounds: { x: number; y: number; width: number; height: number } };

type Input = { key: string; project: string | null; labelChars: number };
type Datum = SimulationNodeDatum & { key: string; project: string | null; radius: number };

const CHAR_PX = 6.6;
const DOT_PX = 7;
/** Enough for the order: the rows, not the force, keep labels apart. */
const TICKS = 40;
const BOX_PAD = 26;
const ROW_PX = 46;
const GAP_PX = 10;
const BOX_GAP = 40;
const TITLE_PX = 14;
/** The width for a height the map is fitted into, about a laptop's map pane. */
const ASPECT = 1.8;

/** A node's room: half its label's width (the label is centered under the dot), never less than its dot's. */
function radiusOf(labelChars: number): number {
  return Math.max(DOT_PX + 14, (labelChars * CHAR_PX) / 2 + 4);
}

function groupByProject(nodes: readonly Input[]): [string | null, Input[]][] {
  const groups = new Map<string | null, Input[]>();
  for (const node of nodes) {
    const group = groups.get(node.project);
    if (group === undefined) groups.set(node.project, [node]);
    else group.push(node);
  }
  // The largest projects first, then by name: the same projects always in the same places.
  return [...groups.entries()].sort((a, b) => b[1].length - a[1].length || String(a[0]).localeCompare(String(b[0])));
}

/** The force's places for one project's nodes: an order, those that talk to each other near. */
function runForce(project: string | null, group: readonly Input[], edges: readonly { from: string; to: string }[]): Datum[] {
  const data: Datum[] = group.map((node, index) => {
    // Spread on a sunflower by index: none starts on another, and the same nodes start the same.
    const angle = index * 2.399963;
    return { key: node.key, project, radius: radiusOf(node.labelChars), x: Math.cos(angle) * 12 * Math.sqrt(index + 1), y: Math.sin(angle) * 12 * Math.sqrt(index + 1) };
  });
  const here = new Set(group.map((node) => node.key));
  // Only links within the project move a node: its place in its own box is all that is chosen.
  const links = edges.filter((edge) => edge.from !== edge.to && here.has(edge.from) && here.has(edge.to)).map((edge) => ({ source: edge.from, target: edge.to }));
  forceSimulation<Datum>(data)
    .force('x', forceX<Datum>(0).strength(0.1))
    .force('y', forceY<Datum>(0).strength(0.1))
    .force('charge', forceManyBody<Datum>().strength(-40))
    .force('link', forceLink<Datum, { source: string; target: string }>(links).id((datum) => datum.key).strength(0.03))
    .stop()
    .tick(TICKS);
  return data;
}

/** A project's nodes on rows, in the force's order (top to bottom, then left to right), from (0, 0). */
function setOnRows(group: readonly Datum[]): { laid: LaidNode[]; width: number; height: number } {
  const perRow = Math.max(1, Math.ceil(Math.sqrt(group.length * 1.6)));
  const byY = [...group].sort((a, b) => a.y! - b.y! || a.key.localeCompare(b.key));
  const laid: LaidNode[] = [];
  let width = 0;
  for (let row = 0; row * perRow < byY.length; row++) {
    const members = byY.slice(row * perRow, (row + 1) * perRow).sort((a, b) => a.x! - b.x! || a.key.localeCompare(b.key));
    let x = 0;
    for (const datum of members) {
      laid.push({ key: datum.key, x: x + datum.radius, y: row * ROW_PX + DOT_PX, radius: datum.radius });
      x += 2 * datum.radius + GAP_PX;
    }
    width = Math.max(width, x - GAP_PX);
  }
  return { laid, width, height: Math.ceil(byY.length / perRow) * ROW_PX };
}

/** Lays the nodes out, grouped by project, each project a box of rows, the boxes on a grid. */
export function layOut(nodes: readonly Input[], edges: readonly { from: string; to: string }[]): Layout {
  const groups = groupByProject(nodes);
  const rowsOf = groups.map(([project, group]) => ({ project, ...setOnRows(runForce(project, group, edges)) }));
  const cellWidth = Math.max(...rowsOf.map((rows) => rows.width)) + 2 * BOX_PAD + BOX_GAP;
  const cellHeight = Math.max(...rowsOf.map((rows) => rows.height)) + 2 * BOX_PAD + TITLE_PX + BOX_GAP;
  // As many columns as make the whole about as wide as a screen is for its height: fit shows it large.
  const columns = Math.max(1, Math.min(rowsOf.length, Math.round(Math.sqrt((rowsOf.length * cellHeight * ASPECT) / cellWidth))));
  const laid = new Map<string, LaidNode>();
  const boxes: ProjectBox[] = [];
  let top = 0;
  for (let start = 0; start < rowsOf.length; start += columns) {
    const line = rowsOf.slice(start, start + columns);
    const lineHeight = Math.max(...line.map((rows) => rows.height)) + 2 * BOX_PAD + TITLE_PX;
    line.forEach((rows, column) => {
      const left = column * cellWidth;
      const origin = { x: left + BOX_PAD, y: top + BOX_PAD + TITLE_PX };
      for (const node of rows.laid) laid.set(node.key, { ...node, x: node.x + origin.x, y: node.y + origin.y });
      boxes.push({ project: rows.project, x: left, y: top, width: rows.width + 2 * BOX_PAD, height: rows.height + 2 * BOX_PAD + TITLE_PX });
    });
    top += lineHeight + BOX_GAP;
  }
  const right = Math.max(0, ...boxes.map((box) => box.x + box.width));
  const bottom = Math.max(0, ...boxes.map((box) => box.y + box.height));
  return { nodes: laid, boxes, bounds: { x: -20, y: -20, width: right + 40, height: bottom + 40 } };
}
