import { forceLink, forceManyBody, forceSimulation, forceX, forceY, type SimulationNodeDatum } from 'd3-force';

// Where the map puts its nodes. d3-force (a well-kept layout library, not physics of our own)
// finds which nodes belong near which: each pulled to its project's center and drawn to the nodes
// it talks to, for a few dozen ticks. Its places are then read as an order and set on rows inside
// the project's box, each node as wide as its label: no two labels overlap whatever the force
// left, and the work is the same at any count of edges. Deterministic (d3-force's own seeded
// jiggle, starting places by index), so the same nodes are always laid out the same way; the map
// lays out again only when its nodes change.
//
// A node that appears (a session that begins to talk, as the reader watches) leaves the others
// where they were: it is put at the end of its project's rows, and a new project's box in the
// shortest column, as long as the whole is not drawn much smaller for it (STAY_SMALLER) than a
// new layout would draw it. A node whose project is learnt after it was drawn (a session's first
// entries said nothing of it, or another directory) leaves its box and is set as one that appears.
//
// The drawing is fitted to its pane, so its names are drawn as large as the whole is small for
// the pane's shape: a box's rows are as many as make it about the pane's shape, and the boxes
// stand in columns (each in the column that is shortest so far), as many columns as make the
// whole closest to that shape. Boxes on a grid of equal cells, each as wide as the widest,
// stacked a machine's small projects under one box of long-addressed peers: its names were
// drawn at 7–8 px on a laptop.

export type LaidNode = { key: string; x: number; y: number; radius: number };
type ProjectBox = { project: string | null; x: number; y: number; width: number; height: number };
/** How a layout was made, for one that keeps it: each project's nodes to a row, and its box's column. */
type Plan = { perRow: Map<string | null, number>; columnOf: Map<string | null, number>; columns: number };
export type Layout = { nodes: Map<string, LaidNode>; boxes: ProjectBox[]; bounds: { x: number; y: number; width: number; height: number }; plan: Plan };

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
/** A project's title: about this wide a character (12 px, bold), set in from the box's left edge. */
const TITLE_CHAR_PX = 7.4;
export const TITLE_INSET = 10;
/** The width for a height the map is fitted into when its pane has no size to measure: about a laptop's. */
export const DEFAULT_ASPECT = 1.8;
/** Columns tried at most: a thousand projects are not laid out in a thousand tries of a thousand boxes. */
const MAX_COLUMNS = 64;
/**
 * A layout kept as nodes appear is given up for a new one once the new one would be drawn this
 * much larger, fitted to the pane: places kept are worth a little room, not names drawn small.
 */
const STAY_SMALLER = 1.25;

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

/**
 * A project's nodes on rows, in the force's order (top to bottom, then left to right), from
 * (0, 0): as many to a row as make the box about the pane's shape, for nodes of their widths.
 */
function setOnRows(group: readonly Datum[], aspect: number, keptPerRow: number | undefined): { laid: LaidNode[]; width: number; height: number; perRow: number } {
  const meanWidth = group.reduce((sum, datum) => sum + 2 * datum.radius + GAP_PX, 0) / group.length;
  const perRow = keptPerRow ?? Math.min(group.length, Math.max(1, Math.round(Math.sqrt((group.length * ROW_PX * aspect) / meanWidth))));
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
  return { laid, width, height: Math.ceil(byY.length / perRow) * ROW_PX, perRow };
}

/**
 * Boxes of these sizes in `count` columns, in order, each in the column that is shortest so far:
 * where each stands, the columns' widths, and the whole's width and height.
 */
function standInColumns(sizes: readonly { width: number; height: number; column?: number | undefined }[], count: number) {
  const heights = new Array<number>(count).fill(0);
  const widths = new Array<number>(count).fill(0);
  const places = sizes.map((size) => {
    const column = size.column ?? heights.indexOf(Math.min(...heights));
    const top = heights[column]!;
    heights[column] = top + size.height + BOX_GAP;
    widths[column] = Math.max(widths[column]!, size.width);
    return { column, top };
  });
  // Each column has a box: the first `count` boxes stand in the columns still empty.
  return { places, widths, width: widths.reduce((sum, width) => sum + width, 0) + BOX_GAP * (count - 1), height: Math.max(0, Math.max(...heights) - BOX_GAP) };
}

type Shape = {
  /** The pane's width for its height: the shape the whole is made to fill. */
  aspect: number;
  /** How long a box's title is: the box is at least as wide. */
  titleChars(project: string | null): number;
};

/** The nodes by project, each project's in the force's places: the order its rows are set in, whatever the pane's shape. */
export type Ordered = readonly { project: string | null; data: readonly Datum[] }[];

/** Groups the nodes by project and runs the force on each: the work a new pane's shape does not redo. */
export function orderNodes(nodes: readonly Input[], edges: readonly { from: string; to: string }[]): Ordered {
  return groupByProject(nodes).map(([project, group]) => ({ project, data: runForce(project, group, edges) }));
}

/**
 * The nodes laid out before, in the same projects, with the nodes come since: each project's in
 * its order with the new ones after, and new projects after the others. A node now in another
 * project (its project learnt after it was drawn), or whose label is now another width, leaves its
 * place and is set as one come since; a box it leaves empty is gone. Null when a node laid out
 * before is gone: the nodes shown are another set (a window chosen), laid out anew.
 */
export function extendOrder(before: Ordered, nodes: readonly Input[], edges: readonly { from: string; to: string }[]): Ordered | null {
  const byKey = new Map(nodes.map((node) => [node.key, node]));
  const known = new Set<string>();
  const stayed: { project: string | null; data: Datum[] }[] = [];
  for (const { project, data } of before) {
    const still: Datum[] = [];
    for (const datum of data) {
      const node = byKey.get(datum.key);
      if (node === undefined) return null;
      if (node.project !== project || radiusOf(node.labelChars) !== datum.radius) continue;
      known.add(datum.key);
      still.push(datum);
    }
    stayed.push({ project, data: still });
  }
  const added = nodes.filter((node) => !known.has(node.key));
  const extended = stayed.flatMap(({ project, data }) => {
    const come = added.filter((node) => node.project === project);
    if (come.length === 0) return data.length === 0 ? [] : [{ project, data }];
    // After every node there, in the order rows are set in: below and to the right of them all.
    const y = data.length === 0 ? 0 : Math.max(...data.map((datum) => datum.y!));
    const x = data.length === 0 ? 0 : Math.max(...data.map((datum) => datum.x!));
    return [{ project, data: [...data, ...come.map((node, at) => ({ key: node.key, project, radius: radiusOf(node.labelChars), x: x + 1 + at, y: y + 1 + at }))] }];
  });
  const projects = new Set(extended.map(({ project }) => project));
  return [...extended, ...orderNodes(added.filter((node) => !projects.has(node.project)), edges)];
}

/** How large a laid out whole is, fitted to a pane of this shape: the larger, the smaller it is drawn. */
function fittedSize(bounds: { width: number; height: number }, aspect: number): number {
  return Math.max(bounds.width / aspect, bounds.height);
}

/**
 * Lays ordered nodes out for a pane's shape: each project a box of rows, the boxes in columns.
 * Given the plan of the layout before (the same shape, nodes come since: extendOrder), it keeps
 * each project's nodes to a row and each box's column, unless a new layout is drawn much larger.
 */
export function layOut(ordered: Ordered, shape: Shape, keep?: Plan): Layout {
  const fresh = layOutBy(ordered, shape, undefined);
  if (keep === undefined) return fresh;
  const kept = layOutBy(ordered, shape, keep);
  return fittedSize(kept.bounds, shape.aspect) > STAY_SMALLER * fittedSize(fresh.bounds, shape.aspect) ? fresh : kept;
}

function layOutBy(ordered: Ordered, { aspect, titleChars }: Shape, keep: Plan | undefined): Layout {
  const rowsOf = ordered.map(({ project, data }) => ({ project, ...setOnRows(data, aspect, keep?.perRow.get(project)) }));
  const sizes = rowsOf.map((rows) => ({ width: Math.max(rows.width + 2 * BOX_PAD, titleChars(rows.project) * TITLE_CHAR_PX + 2 * TITLE_INSET), height: rows.height + 2 * BOX_PAD + TITLE_PX, column: keep?.columnOf.get(rows.project) }));
  // The columns whose whole is the largest once fitted to a pane of the map's shape; or the ones kept.
  let best = standInColumns(sizes, keep?.columns ?? 1);
  for (let count = 2; keep === undefined && count <= Math.min(sizes.length, MAX_COLUMNS); count++) {
    const tried = standInColumns(sizes, count);
    if (fittedSize(tried, aspect) < fittedSize(best, aspect)) best = tried;
  }
  const lefts: number[] = [];
  let left = 0;
  for (const width of best.widths) {
    lefts.push(left);
    left += width + BOX_GAP;
  }
  const laid = new Map<string, LaidNode>();
  const boxes: ProjectBox[] = rowsOf.map((rows, at) => {
    const { column, top } = best.places[at]!;
    const left = lefts[column]!;
    const origin = { x: left + BOX_PAD, y: top + BOX_PAD + TITLE_PX };
    for (const node of rows.laid) laid.set(node.key, { ...node, x: node.x + origin.x, y: node.y + origin.y });
    return { project: rows.project, x: left, y: top, width: sizes[at]!.width, height: sizes[at]!.height };
  });
  const plan: Plan = { perRow: new Map(rowsOf.map((rows) => [rows.project, rows.perRow])), columnOf: new Map(rowsOf.map((rows, at) => [rows.project, best.places[at]!.column])), columns: best.widths.length };
  return { nodes: laid, boxes, bounds: { x: -20, y: -20, width: best.width + 40, height: best.height + 40 }, plan };
}
