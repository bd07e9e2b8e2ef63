import { expect } from 'chai';
import { contentOperators } from '../../lib/pdf/content-stream.js';
import { paintedMarks } from '../../lib/pdf/painted-marks.js';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'latin1');

/** lib/pdf: a page's content stream read as operators, and where what it paints lands. */
describe('PDF content streams (lib/pdf)', () => {
  it('reads operators with their operands: numbers, names, strings by length, arrays, dictionaries; skips comments and inline image data', () => {
    const ops = [...contentOperators(bytes('% a comment\n/F1 12 Tf (a\\)b) Tj [(ab) -250 <414243>] TJ /P <</MCID 0>> BDC BI /W 1 ID \x00\x01 EI Q'))];
    expect(ops).to.deep.equal([
      { op: 'Tf', args: ['/F1', 12] },
      { op: 'Tj', args: [{ str: 3 }] },
      { op: 'TJ', args: [[{ str: 2 }, -250, { str: 3 }]] },
      { op: 'BDC', args: ['/P', ['/MCID', 0]] },
      { op: 'BI', args: [] },
      { op: 'Q', args: [] },
    ]);
  });

  it('places text, paths, XObjects and shadings in the page space', () => {
    const stream = bytes('q 1 0 0 1 100 200 cm BT /F1 10 Tf 5 0 Td (abcd) Tj ET 0 0 m 10 0 l S /Fm1 Do Q sh');
    const marks = [...paintedMarks(stream, (name) => (name === 'Fm1' ? { bbox: [0, 0, 50, 20], matrix: [1, 0, 0, 1, 0, 0] } : undefined))];
    expect(marks.map((m) => [m.kind, m.operator])).to.deep.equal([
      ['text', 'Tj'],
      ['drawing', 'S'],
      ['drawing', 'Do /Fm1'],
      ['drawing', 'sh'],
    ]);
    // Four glyphs at 10 pt: 20 pt wide, from 2.5 pt below the baseline to 10 pt above it.
    expect(marks[0]!.points).to.deep.equal([
      [105, 197.5],
      [125, 197.5],
      [105, 210],
      [125, 210],
    ]);
    expect(marks[1]!.points).to.deep.equal([
      [100, 200],
      [110, 200],
    ]);
    expect(marks[2]!.points![3]).to.deep.equal([150, 220]);
    expect(marks[3]!.points, 'a shading covers the whole clip').to.equal(undefined);
  });
});
