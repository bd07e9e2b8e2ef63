import { paintedMarks, type XObjectBounds } from '../../lib/pdf/painted-marks.js';

/**
 * Whether a page draws anything in the address window of a DL/C5 window envelope, read from its
 * content stream's operators (lib/pdf/painted-marks.ts).
 *
 * The zone is the one our own letters print the recipient in (activities/pdf/letter-html.ts: 110 mm
 * from the left, 50 mm from the top, 80 × 38 mm), widened by the play of a sheet folded in three in
 * its envelope: 100 to 200 mm from the left edge, 40 to 95 mm from the top edge of an A4 page.
 *
 * Conservative on purpose: whatever the page paints counts where paintedMarks places it, text by an
 * approximate box, whatever its colour (a white rectangle over the window is refused too), and a
 * shading wherever it is.
 */
export const WINDOW_ZONE_MM = {
  left: 100,
  right: 200,
  top: 40,
  bottom: 95,
  description: 'window zone 100–200 mm from the left edge, 40–95 mm from the top edge of page 1',
} as const;

const MM = 72 / 25.4;

/** The first thing drawn in the window zone, or undefined when it is blank. */
export function contentInWindow(
  content: Uint8Array,
  pageHeightPt: number,
  xobjects?: XObjectBounds,
): { kind: 'text' | 'image' | 'drawing'; operator: string } | undefined {
  const zone = {
    x0: WINDOW_ZONE_MM.left * MM,
    x1: WINDOW_ZONE_MM.right * MM,
    y0: pageHeightPt - WINDOW_ZONE_MM.bottom * MM,
    y1: pageHeightPt - WINDOW_ZONE_MM.top * MM,
  };
  /** Overlap of the points' bounding box with the zone (touching its edge is no overlap). */
  const hits = (points: [number, number][]): boolean => {
    if (!points.length) return false;
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    return Math.min(...xs) < zone.x1 && Math.max(...xs) > zone.x0 && Math.min(...ys) < zone.y1 && Math.max(...ys) > zone.y0;
  };
  for (const { kind, operator, points } of paintedMarks(content, xobjects)) if (!points || hits(points)) return { kind, operator };
  return undefined;
}
