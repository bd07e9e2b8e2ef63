import { apply, contentOperators, IDENTITY, multiply, type Matrix, type Operand } from './content-stream.js';

/** What a form or image XObject is, by its resource name (`/Im1` → `Im1`), for `Do`. */
export type XObjectBounds = (name: string) => { bbox: [number, number, number, number]; matrix: Matrix } | undefined;

/** Something a content stream paints, where it paints it. */
export interface PaintedMark {
  kind: 'text' | 'image' | 'drawing';
  /** The operator that paints it (`Tj`, `f`, `Do /Im1`…). */
  operator: string;
  /** Corners of what it covers, in the page's default space (points); undefined: the whole clip (a shading). */
  points?: [number, number][];
}

const num = (value: Operand | undefined): number => (typeof value === 'number' ? value : 0);

const box = (m: Matrix, x0: number, y0: number, x1: number, y1: number): [number, number][] => [
  apply(m, x0, y0),
  apply(m, x1, y0),
  apply(m, x0, y1),
  apply(m, x1, y1),
];

/**
 * The marks a content stream paints, in order, as far as their place is known without fonts:
 * text with an approximate box (half an em a glyph, one em high, from a quarter em below the
 * baseline), images and form XObjects by their bounds (`xobjects`; an unknown one as an image of
 * the unit square), painted paths by their points, whatever their colour. Clipping is not applied.
 */
export function* paintedMarks(content: Uint8Array, xobjects: XObjectBounds = () => undefined): Generator<PaintedMark> {
  let ctm: Matrix = IDENTITY;
  const saved: Matrix[] = [];
  let tm: Matrix = IDENTITY;
  let tlm: Matrix = IDENTITY;
  let fontSize = 0;
  let leading = 0;
  let scale = 1;
  let path: [number, number][] = [];
  /** A run of `glyphs` glyphs at the text position: its box (none for no glyph); moves the position past it. */
  const show = (glyphs: number, shift = 0): [number, number][] | undefined => {
    const width = glyphs * fontSize * 0.5 * scale - (shift / 1000) * fontSize * scale;
    const placed = multiply(tm, ctm);
    const points = glyphs > 0 ? box(placed, 0, -0.25 * fontSize, Math.max(width, 0), fontSize) : undefined;
    tm = multiply([1, 0, 0, 1, width, 0], tm);
    return points;
  };
  const newLine = (tx: number, ty: number): void => {
    tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
    tm = tlm;
  };
  const glyphsOf = (operand: Operand | undefined): number => (operand as { str: number } | undefined)?.str ?? 0;
  for (const { op, args } of contentOperators(content)) {
    switch (op) {
      case 'q':
        saved.push(ctm);
        break;
      case 'Q':
        ctm = saved.pop() ?? IDENTITY;
        break;
      case 'cm':
        ctm = multiply(args.slice(0, 6).map(num) as Matrix, ctm);
        break;
      case 'BT':
        tm = tlm = IDENTITY;
        break;
      case 'Tf':
        fontSize = num(args[1]);
        break;
      case 'TL':
        leading = num(args[0]);
        break;
      case 'Tz':
        scale = num(args[0]) / 100;
        break;
      case 'Tm':
        tm = tlm = args.slice(0, 6).map(num) as Matrix;
        break;
      case 'Td':
        newLine(num(args[0]), num(args[1]));
        break;
      case 'TD':
        leading = -num(args[1]);
        newLine(num(args[0]), num(args[1]));
        break;
      case 'T*':
        newLine(0, -leading);
        break;
      case "'":
      case '"': {
        newLine(0, -leading);
        const points = show(glyphsOf(args[args.length - 1]));
        if (points) yield { kind: 'text', operator: op, points };
        break;
      }
      case 'Tj': {
        const points = show(glyphsOf(args[0]));
        if (points) yield { kind: 'text', operator: op, points };
        break;
      }
      case 'TJ':
        for (const part of Array.isArray(args[0]) ? args[0] : []) {
          const points = typeof part === 'number' ? show(0, part) : part && typeof part === 'object' && 'str' in part ? show(part.str) : undefined;
          if (points) yield { kind: 'text', operator: op, points };
        }
        break;
      case 'm':
      case 'l':
        path.push(apply(ctm, num(args[0]), num(args[1])));
        break;
      case 'c':
      case 'v':
      case 'y':
        for (let k = 0; k + 1 < args.length; k += 2) path.push(apply(ctm, num(args[k]), num(args[k + 1])));
        break;
      case 're': {
        const [x, y, w, h] = args.map(num) as [number, number, number, number];
        path.push(...box(ctm, x, y, x + w, y + h));
        break;
      }
      case 'S':
      case 's':
      case 'f':
      case 'F':
      case 'f*':
      case 'B':
      case 'B*':
      case 'b':
      case 'b*':
        if (path.length) yield { kind: 'drawing', operator: op, points: path };
        path = [];
        break;
      case 'n':
        path = [];
        break;
      case 'sh':
        // A shading paints the whole clip.
        yield { kind: 'drawing', operator: op };
        break;
      case 'BI':
        yield { kind: 'image', operator: 'BI', points: box(ctm, 0, 0, 1, 1) };
        break;
      case 'Do': {
        const name = typeof args[0] === 'string' ? args[0] : '';
        const form = xobjects(name.replace(/^\//, ''));
        const points = form ? box(multiply(form.matrix, ctm), ...form.bbox) : box(ctm, 0, 0, 1, 1);
        yield { kind: form ? 'drawing' : 'image', operator: `Do ${name}`, points };
        break;
      }
    }
  }
}
