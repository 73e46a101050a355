import { useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import type { MapResponse } from '../../../shared/wire/map.ts';
import { projectName } from '../sessions/names.ts';
import { DEFAULT_ASPECT, extendOrder, layOut, orderNodes, type Layout, type Ordered } from './layout.ts';
import { labelNode } from './mapWords.ts';

// Where the map's drawing (MapCanvas.tsx) gets its layout: the pane's shape, measured, and the
// layout (layout.ts) made again only when the nodes or that shape change.

/** A project's box's title. */
export function titleOf(project: string | null): string {
  return project === null ? 'no project known' : projectName(project);
}

/**
 * The drawing pane's width for its height, in steps of a fifth or so (a pane dragged wider is not
 * laid out again for each pixel): the shape the layout fills, measured before it is painted.
 * `hold`: a shape measured is kept while it holds, measured again when it ends.
 */
export function usePaneShape(svg: RefObject<SVGSVGElement | null>, hold: boolean): number | null {
  const [aspect, setAspect] = useState<number | null>(null);
  const measured = aspect !== null;
  useLayoutEffect(() => {
    const element = svg.current;
    if (element === null || (hold && measured)) return;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      // A pane not laid out (hidden) is drawn for a laptop's.
      setAspect(width > 0 && height > 0 ? 2 ** (Math.round(Math.log2(width / height) * 4) / 4) : DEFAULT_ASPECT);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [svg, hold, measured]);
  return aspect;
}

const NOTHING_LAID: Layout = { nodes: new Map(), boxes: [], bounds: { x: 0, y: 0, width: 1, height: 1 }, plan: { perRow: new Map(), columnOf: new Map(), columns: 1 } };

/** How many pane shapes keep their layout: a pane dragged through every step and back is a handful. */
const SHAPES_KEPT = 8;

type Laid = { keys: string; ordered: Ordered; layout: Layout };

/**
 * The layout of the nodes shown: laid out again only when the set of nodes or the pane's shape
 * changes, never for a count. Nodes come since, in the same pane, are added to the layout before
 * (layout.ts, extendOrder), the others left where they were, and so is a node now in another
 * project; a set of nodes with one gone (a window chosen) is laid out anew, the force run again.
 *
 * The last layout of each shape is kept: a pane that goes back to a shape it had (a window
 * dragged narrower and back, a line of notice above the drawing come and gone) gets that shape's
 * places back, with the nodes come since added, not a new layout of them all.
 */
export function useStableLayout(map: MapResponse, aspect: number | null): Layout {
  const kept = useRef<Map<number, Laid>>(null);
  return useMemo(() => {
    const byShape = (kept.current ??= new Map());
    // Nothing is drawn until the pane is measured, before it is painted: 4,000 arrows drawn for a
    // guessed shape were drawn again for the real one.
    if (aspect === null) return NOTHING_LAID;
    const keys = map.nodes.map((node) => `${node.key}\t${labelNode(node).length}\t${node.project ?? ''}`).join('\n');
    const before = byShape.get(aspect);
    // The shape drawn last is the Map's last: the one dropped when too many are kept is the one least lately drawn.
    byShape.delete(aspect);
    if (before !== undefined && before.keys === keys) {
      byShape.set(aspect, before);
      return before.layout;
    }
    const shape = { aspect, titleChars: (project: string | null) => titleOf(project).length };
    const nodes = map.nodes.map((node) => ({ key: node.key, project: node.project, labelChars: labelNode(node).length }));
    const extended = before === undefined ? null : extendOrder(before.ordered, nodes, map.edges);
    // The same nodes in a shape not laid out yet: the force's order, in the shape drawn last, is not found again.
    const latest = [...byShape.values()].at(-1);
    const ordered = extended ?? (latest?.keys === keys ? latest.ordered : orderNodes(nodes, map.edges));
    const layout = extended !== null ? layOut(ordered, shape, before!.layout.plan) : layOut(ordered, shape);
    byShape.set(aspect, { keys, ordered, layout });
    if (byShape.size > SHAPES_KEPT) byShape.delete(byShape.keys().next().value!);
    return layout;
  }, [map, aspect]);
}
