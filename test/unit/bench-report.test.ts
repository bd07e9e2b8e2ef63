import { expect } from 'chai';
import { Report } from '../../bench/report.js';
import { middle, pairedRatio, roundRatios } from '../../bench/stats.js';
import { countSteal } from '../../bench/steal.js';
import { cpuBetween, cpuSnapshot, parseProcStat, type ProcessCpu } from '../../bench/process-cpu.js';
import { createdTimeline, TIMELINE_STAGES } from '../../bench/created-timeline.js';
import { msToTs } from '@temporalio/common/lib/time.js';

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

  it("shows the spread of a figure taken over rounds: its lowest and highest round, in the value's digits", () => {
    const report = new Report();
    const log = console.log;
    console.log = () => undefined;
    try {
      report.add({ part: 'p', name: 'n', value: 0.6149, unit: 'ratio', rounds: [0.6149, 0.581, 0.66], target: { atLeast: 0.6 } });
      report.add({ part: 'p', name: 'one', value: 0.7, unit: 'ratio', rounds: [0.7] });
    } finally {
      console.log = log;
    }
    const rows = report
      .markdown()
      .split('\n')
      .filter((line) => line.startsWith('| p |'));
    expect(rows).to.deep.equal(['| p | n | 0.61 (3 rounds 0.58–0.66) | ≥ 0.6 | met |', '| p | one | 0.70 |  |  |']);
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

  it("keeps each round's ratio, in order, for the report's spread", () => {
    expect(roundRatios([10, 5, 12], [20, 10, 15])).to.deep.equal([0.5, 0.5, 0.8]);
  });
});

describe('bench: the CPU time the hypervisor took during a part', () => {
  // /proc/stat as proc(5) documents it: the aggregate line first, then one per core.
  const stat = (user: number, idle: number, steal: number): string => `cpu  ${user} 0 100 ${idle} 10 0 5 ${steal} 0 0\ncpu0 1 0 1 1 0 0 0 0 0 0\nintr 12345\n`;

  it('is the steal ticks over all ticks between the start and the end', () => {
    const snapshots = [stat(1000, 5000, 200), stat(1600, 5300, 300)];
    const stolen = countSteal(() => snapshots.shift()!);
    // 600 user + 300 idle + 100 steal ticks passed: 10 %.
    expect(stolen()).to.equal(10);
  });

  it('says nothing where the system does not say (no /proc/stat, another format)', () => {
    expect(countSteal(() => '')()).to.equal(undefined);
    expect(countSteal(() => 'cpu 1 2 3\n')()).to.equal(undefined);
  });
});

describe('bench: the CPU each process of a run used', () => {
  // /proc/<pid>/stat as proc(5) documents it: pid (comm) state ppid pgrp session tty tpgid flags
  // minflt cminflt majflt cmajflt utime stime cutime cstime …; utime and stime in 1/100 s.
  const line = (pid: number, comm: string, ppid: number, utime: number, stime: number): string =>
    `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194560 1200 0 0 0 ${utime} ${stime} 900 800 20 0 1 0 5000 1000000 200`;

  it('reads the parent and the own user and system time, whatever the name holds', () => {
    expect(parseProcStat(line(42, 'postgres', 7, 150, 50))).to.deep.equal({ pid: 42, ppid: 7, comm: 'postgres', cpuMs: 2000 });
    // A name with spaces and parentheses runs to the last ")"; the children's times (900, 800) are not counted.
    expect(parseProcStat(line(43, 'Web Content (x) y', 42, 1, 2))).to.deep.equal({ pid: 43, ppid: 42, comm: 'Web Content (x) y', cpuMs: 30 });
    expect(parseProcStat('garbage')).to.equal(undefined);
  });

  it('groups the processes under the root only, by themselves and their ancestors, and counts what each used between two snapshots', () => {
    const processes = (extra: number): ProcessCpu[] => [
      { pid: 1, ppid: 0, comm: 'init', cpuMs: 99_000 },
      { pid: 10, ppid: 1, comm: 'node', cpuMs: 100 + extra },
      { pid: 11, ppid: 10, comm: 'node', cpuMs: 200 + extra },
      { pid: 12, ppid: 11, comm: 'chrome', cpuMs: 300 + extra },
      { pid: 13, ppid: 12, comm: 'chrome', cpuMs: 400 + extra },
      { pid: 14, ppid: 10, comm: 'postgres', cpuMs: 500 + extra },
      { pid: 20, ppid: 1, comm: 'postgres', cpuMs: 600 + extra },
    ];
    const groupOf = (p: ProcessCpu, ancestors: ProcessCpu[]): string | undefined =>
      p.pid === 11 ? 'worker' : ancestors.some((a) => a.pid === 11) ? 'browser' : p.comm === 'postgres' ? 'postgres' : p.pid === 10 ? 'root' : undefined;
    const before = cpuSnapshot(10, groupOf, processes(0));
    // Outside the root: another machine's postgres (pid 20) and init are not counted.
    expect([...before.keys()].sort()).to.deep.equal([10, 11, 12, 13, 14]);
    const after = cpuSnapshot(
      10,
      groupOf,
      [...processes(10), { pid: 15, ppid: 12, comm: 'chrome', cpuMs: 7 }].filter((p) => p.pid !== 14),
    );
    // Each process's time since the first snapshot; a new one's whole time; an ended one counts nothing.
    expect(Object.fromEntries(cpuBetween(before, after))).to.deep.equal({ root: 10, worker: 10, browser: 27 });
  });
});

describe('bench: where POST → mailing.created goes, from the workflow history', () => {
  // As the client returns a history: each event's time a protobuf Timestamp (seconds as a Long).
  const at = (ms: number) => ({ eventTime: msToTs(ms) });
  const sent = 1_795_000_000_000;

  it('splits the whole into stages that add up to it, each from its own event', () => {
    const events = [
      { ...at(sent + 12), workflowExecutionStartedEventAttributes: {} },
      { ...at(sent + 12), workflowTaskScheduledEventAttributes: {} },
      { ...at(sent + 16), workflowTaskStartedEventAttributes: {} },
      { ...at(sent + 36), workflowTaskCompletedEventAttributes: {} },
      { ...at(sent + 37), workflowTaskStartedEventAttributes: {} },
      { ...at(sent + 40), workflowTaskCompletedEventAttributes: {} },
    ];
    const timeline = createdTimeline({ sent, answered: sent + 10, received: sent + 49 }, events);
    expect(timeline).to.deep.equal({ answer: 10, start: 2, firstTaskDispatch: 4, firstTask: 20, delivery: 13 });
    expect(Object.values(timeline).reduce((a, b) => a + b, 0)).to.equal(49);
    expect(Object.keys(TIMELINE_STAGES)).to.deep.equal(Object.keys(timeline));
  });

  it('refuses a history without its first workflow task rather than inventing a stage', () => {
    const startedOnly = [{ ...at(sent + 12), workflowExecutionStartedEventAttributes: {} }];
    expect(() => createdTimeline({ sent, answered: sent + 10, received: sent + 49 }, startedOnly)).to.throw(/first workflow task/);
  });
});
