import { expect } from 'chai';
import { Report } from '../../bench/report.js';
import { middle, pairedRatio } from '../../bench/stats.js';

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

describe('bench ratios: taken round by round', () => {
  it("is the median of each round's ratio, not a fast round's figure over a slow round's baseline", () => {
    // Round 2 ran on a slow machine for both sides: its ratio is the same as round 1's.
    expect(pairedRatio([10, 5, 12], [20, 10, 15])).to.equal(0.5);
    // The ratio of the medians would pair 10 with 15 and read 0.67.
    expect(middle([10, 5, 12]) / middle([20, 10, 15])).to.be.closeTo(0.67, 0.01);
  });

  it('refuses rounds without their baseline', () => {
    expect(() => pairedRatio([1, 2], [1])).to.throw(/one baseline per value/);
    expect(() => pairedRatio([], [])).to.throw(/one baseline per value/);
  });
});
