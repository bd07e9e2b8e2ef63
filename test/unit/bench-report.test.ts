import { expect } from 'chai';
import { Report } from '../../bench/report.js';

describe('bench report: a figure reads as its verdict', () => {
  const row = (value: number, target: { atLeast?: number; below?: number }): string => {
    const report = new Report();
    const log = console.log;
    console.log = () => undefined;
    try {
      report.add({ part: 'p', name: 'n', value, unit: 'ratio', target });
    } finally {
      console.log = log;
    }
    return report
      .markdown()
      .split('\n')
      .find((line) => line.startsWith('| p |'))!;
  };

  it('shows two decimals when they carry the verdict', () => {
    expect(row(0.6149, { atLeast: 0.6 })).to.equal('| p | n | 0.61 | ≥ 0.6 | met |');
    expect(row(0.42, { atLeast: 0.6 })).to.equal('| p | n | 0.42 | ≥ 0.6 | **not met** |');
  });

  it('shows more when two would read as met and it is not, or the other way round', () => {
    expect(row(0.5951, { atLeast: 0.6 })).to.equal('| p | n | 0.595 | ≥ 0.6 | **not met** |');
    expect(row(0.3997, { atLeast: 0.4 })).to.equal('| p | n | 0.3997 | ≥ 0.4 | **not met** |');
    expect(row(1.1996, { below: 1.2 })).to.equal('| p | n | 1.1996 | < 1.2 | met |');
  });
});
