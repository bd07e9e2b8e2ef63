import { contentOperators } from './content-stream.js';

/**
 * The fonts a content stream draws text in (ISO 32000-1, 9.3 and 8.10): the font in the graphics
 * state when a text-showing operator (`Tj`, `TJ`, `'`, `"`) runs. A font only selected is not
 * drawn in: reportlab, for one, selects Helvetica at the top of every page whatever font draws
 * the text. The font is set by `Tf` or by an ExtGState's `Font` entry (`gs`), saved and restored
 * by `q`/`Q`, kept across `BT`/`ET` (text objects do not reset the text state), and inherited by
 * the form XObjects the stream draws (`Do`), whose own state ends with them.
 */

/** What a stream's names refer to, from its resources; fonts and forms are the caller's objects, compared by identity. */
export interface TextFontResources<Font> {
  /** The font `/name Tf` selects (`F1` for `/F1`), undefined when the resources have none of that name. */
  font(name: string): Font | undefined;
  /** The font `/name gs` sets (its ExtGState's `Font` entry), undefined when it sets none. */
  stateFont(name: string): Font | undefined;
  /** The form XObject `/name Do` draws (undefined for an image or a missing name): `key` its identity, its decoded content and its resources. */
  form(name: string): { key: object; content: () => Uint8Array; resources: TextFontResources<Font> } | undefined;
}

/** Forms nested deeper are not read (a form drawing itself would never end otherwise). */
const MAX_FORM_DEPTH = 32;

const TEXT_SHOWING = new Set(['Tj', 'TJ', "'", '"']);

const nameOf = (operand: unknown): string => (typeof operand === 'string' ? operand.replace(/^\//, '') : '');

/** The fonts that draw text in `content` and in the forms it draws, each once. */
export function fontsDrawingText<Font>(content: Uint8Array, resources: TextFontResources<Font>): Set<Font> {
  const drawing = new Set<Font>();
  /** The fonts each form was already read with: a form drawn many times is read once per inherited font. */
  const readForms = new Map<object, Set<Font | undefined>>();
  const read = (stream: Uint8Array, names: TextFontResources<Font>, inherited: Font | undefined, depth: number): void => {
    let font = inherited;
    const saved: (Font | undefined)[] = [];
    for (const { op, args } of contentOperators(stream)) {
      if (TEXT_SHOWING.has(op)) {
        if (font !== undefined) drawing.add(font);
      } else if (op === 'Tf') {
        font = names.font(nameOf(args[0]));
      } else if (op === 'gs') {
        font = names.stateFont(nameOf(args[0])) ?? font;
      } else if (op === 'q') {
        saved.push(font);
      } else if (op === 'Q') {
        // An unbalanced Q restores nothing.
        if (saved.length) font = saved.pop();
      } else if (op === 'Do' && depth < MAX_FORM_DEPTH) {
        const form = names.form(nameOf(args[0]));
        if (!form) continue;
        const readWith = readForms.get(form.key) ?? new Set();
        readForms.set(form.key, readWith);
        if (readWith.has(font)) continue;
        readWith.add(font);
        read(form.content(), form.resources, font, depth + 1);
      }
    }
  };
  read(content, resources, undefined, 0);
  return drawing;
}
