/**
 * A PDF page's content stream read as operators (ISO 32000-1, 7.8.2 and 8.2): pdf-lib parses a file's
 * objects but not the operators of a page. Strings are kept by their length only: what is drawn
 * matters here, not what it says.
 */

/** A transformation matrix [a b c d e f]. */
export type Matrix = [number, number, number, number, number, number];
/** An operand: a number, a string (by its byte length), an array or dictionary, a name (`/F1`), or null (booleans, null). */
export type Operand = number | { str: number } | Operand[] | string | null;

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m1 then m2 (PDF's row-vector convention: a point p is mapped by p × m1 × m2). */
export function multiply(m1: Matrix, m2: Matrix): Matrix {
  const [a, b, c, d, e, f] = m1;
  const [A, B, C, D, E, F] = m2;
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

export const apply = (m: Matrix, x: number, y: number): [number, number] => [x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]];

/** ( ) < > [ ] / % { } */
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x2f, 0x25, 0x7b, 0x7d]);
const isDelimiter = (c: number): boolean => DELIMITERS.has(c);
const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;

/** The operators of a content stream with their operands, in order (an inline image: `BI`, its data skipped). */
export function* contentOperators(content: Uint8Array): Generator<{ op: string; args: Operand[] }> {
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
