import { expect } from 'chai';
import { fontsDrawingText, type TextFontResources } from '../../lib/pdf/text-fonts.js';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'latin1');

/** Resources of hand-made streams: fonts are their names, forms their content and own resources. */
function resources(
  fonts: Record<string, string>,
  forms: Record<string, { content: string; resources?: TextFontResources<string> }> = {},
  states: Record<string, string> = {},
): TextFontResources<string> {
  const self: TextFontResources<string> = {
    font: (name) => fonts[name],
    stateFont: (name) => states[name],
    form: (name) => {
      const form = forms[name];
      return form && { key: form, content: () => bytes(form.content), resources: form.resources ?? self };
    },
  };
  return self;
}

const drawing = (content: string, names: TextFontResources<string>): string[] => [...fontsDrawingText(bytes(content), names)].sort();

/** lib/pdf/text-fonts.ts: the fonts a content stream draws text in, not the ones it only selects. */
describe('PDF fonts drawing text (lib/pdf/text-fonts.ts)', () => {
  const page = resources({ F1: 'Helvetica', F2: 'LiberationSans' });

  it('a font selected but never used draws nothing (reportlab: /F1 Tf at the top of every page)', () => {
    expect(drawing('BT /F1 12 Tf 14.4 TL ET BT /F2 11 Tf 56 770 Td (Lettre) Tj ET', page)).to.deep.equal(['LiberationSans']);
    expect(drawing('/F1 12 Tf 0 0 m 10 10 l S', page), 'selected outside a text object').to.deep.equal([]);
  });

  it('counts every text-showing operator: Tj, TJ, \' and "', () => {
    for (const show of ['(a) Tj', '[(a) -20 (b)] TJ', "(a) '", '1 2 (a) "'])
      expect(drawing(`BT /F1 10 Tf ${show} ET`, page), show).to.deep.equal(['Helvetica']);
  });

  it('keeps the font across BT/ET, and restores it with Q', () => {
    expect(drawing('BT /F1 10 Tf ET BT (kept) Tj ET', page), 'a text object does not reset the font').to.deep.equal(['Helvetica']);
    // Selected in q … Q then used after Q: the font before q draws.
    expect(drawing('/F2 10 Tf q BT /F1 10 Tf ET Q BT (after Q) Tj ET', page)).to.deep.equal(['LiberationSans']);
    expect(drawing('/F1 10 Tf q BT /F2 10 Tf ET Q BT (after Q) Tj ET', page)).to.deep.equal(['Helvetica']);
    expect(drawing('/F2 10 Tf Q Q BT (x) Tj ET', page), 'an unbalanced Q restores nothing').to.deep.equal(['LiberationSans']);
  });

  it('reads an ExtGState that sets the font (gs), and ignores one that sets none', () => {
    const withState = resources({ F2: 'LiberationSans' }, {}, { GS1: 'Helvetica' });
    expect(drawing('/F2 10 Tf /GS1 gs BT (x) Tj ET', withState)).to.deep.equal(['Helvetica']);
    expect(drawing('/F2 10 Tf /GS2 gs BT (x) Tj ET', withState)).to.deep.equal(['LiberationSans']);
  });

  it('reads the form XObjects drawn (Do): their own fonts, the font they inherit, and their state ending with them', () => {
    const form = resources({ F9: 'Times-Roman' });
    const withForms = resources(
      { F1: 'Helvetica', F2: 'LiberationSans' },
      {
        Own: { content: 'BT /F9 9 Tf (in form) Tj ET', resources: form },
        Inheriting: { content: 'BT (inherited font) Tj ET', resources: form },
        Selecting: { content: 'BT /F9 9 Tf ET', resources: form },
        Nested: { content: '/Own Do' },
      },
    );
    expect(drawing('/F2 10 Tf /Own Do', withForms), 'a form draws in its own font').to.deep.equal(['Times-Roman']);
    expect(drawing('/F1 10 Tf /Inheriting Do', withForms), 'a form draws in the font selected when it is drawn').to.deep.equal(['Helvetica']);
    expect(drawing('/F2 10 Tf /Selecting Do BT (x) Tj ET', withForms), "a form's Tf ends with it").to.deep.equal(['LiberationSans']);
    expect(drawing('/Nested Do', withForms), 'a form in a form').to.deep.equal(['Times-Roman']);
    expect(drawing('/F1 10 Tf', withForms), 'a form never drawn').to.deep.equal([]);
  });

  it('reads a form once per inherited font, and stops on a form that draws itself', () => {
    let reads = 0;
    const names: TextFontResources<string> = {
      font: (name) => ({ F1: 'Helvetica', F2: 'LiberationSans' })[name],
      stateFont: () => undefined,
      form: () => ({ key: names, content: () => (reads++, bytes('BT (x) Tj ET /Self Do')), resources: names }),
    };
    expect(drawing('/F1 1 Tf /Fm Do /Fm Do /Fm Do /F2 1 Tf /Fm Do', names)).to.deep.equal(['Helvetica', 'LiberationSans']);
    expect(reads).to.equal(2);
  });
});
