/**
 * Whether a page draws anything in the address window of a DL/C5 window envelope, read from its
 * content stream's operators (pdf-lib parses the file but not the operators of a page).
 *
 * The zone is the one our own letters print the recipient in (activities/pdf/letter-html.ts: 110 mm
 * from the left, 50 mm from the top, 80 × 38 mm), widened by the play of a sheet folded in three in
 * its envelope: 100 to 200 mm from the left edge, 40 to 95 mm from the top edge of an A4 page.
 *
 * Conservative on purpose: text counts with an approximate box (half an em a glyph, one em high),
 * images and form XObjects by their bounds, painted paths by their points, whatever their colour
 * (a white rectangle over the window is refused too).
 */
export const WINDOW_ZONE_MM = {
  left: 100,
  right: 200,
  top: 40,
  bottom: 95,
  description: 'window zone 100–200 mm from the left edge, 40–95 mm from the top edge of page 1',
} as const;

const MM = 72 / 25.4;

type Matrix = [number, number, number, number, number, number];
type Operand = number | { str: number } | Operand[] | string | null;

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m1 then m2 (PDF's row-vector convention: a point p is mapped by p × m1 × m2). */
function multiply(m1: Matrix, m2: Matrix): Matrix {
  const [a, b, c, d, e, f] = m1;
  const [A, B, C, D, E, F] = m2;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

const apply = (m: Matrix, x: number, y: number): [number, number] => [x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]];

/** ( ) < > [ ] / % { } */
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x2f, 0x25, 0x7b, 0x7d]);
const isDelimiter = (c: number): boolean => DELIMITERS.has(c);
const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;

/** The operators of a content stream with their operands, in order. */
function* operators(content: Uint8Array): Generator<{ op: string; args: Operand[] }> {
  let i = 0;
  const n = content.length;
  const stack: Operand[][] = [[]];
  const top = (): Operand[] => stack[stack.length - 1]!;
  while (i < n) {
    const c = content[i]!;
    if (isSpace(c)) {
      i++;
    } else if (c === 0x25) {
      while (i < n && content[i] !== 0x0a && content[i] !== 0x0d) i++;
    } else if (c === 0x28) {
      // A literal string: balanced parentheses, backslash escapes.
      let depth = 1;
      let length = 0;
      i++;
      while (i < n && depth > 0) {
        const d = content[i]!;
        if (d === 0x5c) {
          i += 2;
          length++;
          continue;
        }
        if (d === 0x28) depth++;
        if (d === 0x29) depth--;
        if (depth > 0) length++;
        i++;
      }
      top().push({ str: length });
    } else if (c === 0x3c && content[i + 1] === 0x3c) {
      stack.push([]);
      i += 2;
    } else if (c === 0x3e && content[i + 1] === 0x3e) {
      const dict = stack.length > 1 ? stack.pop()! : [];
      top().push(dict);
      i += 2;
    } else if (c === 0x3c) {
      const end = content.indexOf(0x3e, i);
      const digits = Buffer.from(content.subarray(i + 1, end < 0 ? n : end))
        .toString('latin1')
        .replace(/\s/g, '').length;
      top().push({ str: Math.ceil(digits / 2) });
      i = end < 0 ? n : end + 1;
    } else if (c === 0x5b) {
      stack.push([]);
      i++;
    } else if (c === 0x5d) {
      const array = stack.length > 1 ? stack.pop()! : [];
      top().push(array);
      i++;
    } else if (c === 0x2f) {
      let j = i + 1;
      while (j < n && !isSpace(content[j]!) && !isDelimiter(content[j]!)) j++;
      top().push(Buffer.from(content.subarray(i, j)).toString('latin1'));
      i = j;
    } else {
      let j = i;
      while (j < n && !isSpace(content[j]!) && !isDelimiter(content[j]!)) j++;
      if (j === i) j++;
      const word = Buffer.from(content.subarray(i, j)).toString('latin1');
      i = j;
      if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) {
        top().push(Number(word));
      } else if (word === 'true' || word === 'false' || word === 'null') {
        top().push(null);
      } else if (stack.length === 1) {
        if (word === 'BI') {
          // An inline image: its dictionary, then binary data up to EI.
          const end = Buffer.from(content.subarray(i)).indexOf(/* EI */ '\nEI');
          const alt = Buffer.from(content.subarray(i)).indexOf(' EI');
          const found = [end, alt].filter((x) => x >= 0);
          i = found.length ? i + Math.min(...found) + 3 : n;
          stack[0] = [];
          yield { op: 'BI', args: [] };
          continue;
        }
        const args = stack[0]!;
        stack[0] = [];
        yield { op: word, args };
      }
    }
  }
}

const num = (value: Operand | undefined): number => (typeof value === 'number' ? value : 0);

/** What a form or image XObject is, by its resource name (`/Im1`), for `Do`. */
export type XObjectBounds = (name: string) => { bbox: [number, number, number, number]; matrix: Matrix } | undefined;

/** The first thing drawn in the window zone, or undefined when it is blank. */
export function contentInWindow(
  content: Uint8Array,
  pageHeightPt: number,
  xobjects: XObjectBounds = () => undefined,
): { kind: 'text' | 'image' | 'drawing'; operator: string } | undefined {
  const zone = {
    x0: WINDOW_ZONE_MM.left * MM,
    x1: WINDOW_ZONE_MM.right * MM,
    y0: pageHeightPt - WINDOW_ZONE_MM.bottom * MM,
    y1: pageHeightPt - WINDOW_ZONE_MM.top * MM,
  };
  const hits = (points: [number, number][]): boolean => {
    if (!points.length) return false;
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    return Math.min(...xs) < zone.x1 && Math.max(...xs) > zone.x0 && Math.min(...ys) < zone.y1 && Math.max(...ys) > zone.y0;
  };
  let ctm: Matrix = IDENTITY;
  const saved: Matrix[] = [];
  let tm: Matrix = IDENTITY;
  let tlm: Matrix = IDENTITY;
  let fontSize = 0;
  let leading = 0;
  let scale = 1;
  let path: [number, number][] = [];
  const box = (m: Matrix, x0: number, y0: number, x1: number, y1: number): [number, number][] => [
    apply(m, x0, y0),
    apply(m, x1, y0),
    apply(m, x0, y1),
    apply(m, x1, y1),
  ];
  /** A run of `glyphs` glyphs at the text position; moves the position past it. */
  const show = (glyphs: number, shift = 0): boolean => {
    const width = glyphs * fontSize * 0.5 * scale - (shift / 1000) * fontSize * scale;
    const placed = multiply(tm, ctm);
    const drawn = glyphs > 0 && hits(box(placed, 0, -0.25 * fontSize, Math.max(width, 0), fontSize));
    tm = multiply([1, 0, 0, 1, width, 0], tm);
    return drawn;
  };
  const newLine = (tx: number, ty: number): void => {
    tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
    tm = tlm;
  };
  for (const { op, args } of operators(content)) {
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
      case '"':
        newLine(0, -leading);
        if (show((args[args.length - 1] as { str: number } | undefined)?.str ?? 0)) return { kind: 'text', operator: op };
        break;
      case 'Tj':
        if (show((args[0] as { str: number } | undefined)?.str ?? 0)) return { kind: 'text', operator: op };
        break;
      case 'TJ':
        for (const part of Array.isArray(args[0]) ? args[0] : []) {
          const drawn = typeof part === 'number' ? show(0, part) : part && typeof part === 'object' && 'str' in part ? show(part.str) : false;
          if (drawn) return { kind: 'text', operator: op };
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
        if (hits(path)) return { kind: 'drawing', operator: op };
        path = [];
        break;
      case 'n':
        path = [];
        break;
      case 'sh':
        // A shading paints the whole clip: counted as a drawing wherever it is.
        return { kind: 'drawing', operator: op };
      case 'BI':
        if (hits(box(ctm, 0, 0, 1, 1))) return { kind: 'image', operator: 'BI' };
        break;
      case 'Do': {
        const name = typeof args[0] === 'string' ? args[0] : '';
        const form = xobjects(name.replace(/^\//, ''));
        const points = form ? box(multiply(form.matrix, ctm), ...form.bbox) : box(ctm, 0, 0, 1, 1);
        if (hits(points)) return { kind: form ? 'drawing' : 'image', operator: `Do ${name}` };
        break;
      }
    }
  }
  return undefined;
}
