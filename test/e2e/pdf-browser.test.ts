import { expect } from 'chai';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { chooseBrowser, packagedChromium } from '../../activities/pdf/chromium.js';
import { BrowserPool } from '../../activities/pdf/browser.js';
import { printLetter } from '../../activities/pdf.js';
import { catalogue } from '../../domain/catalogue/catalogue.js';
import { renderLetter } from '../../domain/letters/render.js';
import { toolsCacheDir } from '../../lib/config.js';
import { boxLetterValues } from '../support/fixtures.js';
import { readPdf } from '../support/pdf.js';
import { stack } from '../support/stack.js';
import { letterPdf } from '../../workflows/index.js';
import { spawnNode } from '../support/processes.js';

function boxLetter() {
  const letter = catalogue().letters.get('resiliation-box-internet')!;
  return renderLetter(letter, letter.providers[0], { ...boxLetterValues, date: '2026-03-01' }).document;
}

/** Processes whose process group is `pgid` (puppeteer starts the browser as a group leader). */
function processGroup(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command name "(…)": state ppid pgrp …
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) members.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return members;
}

describe('PDF browser', function () {
  this.timeout(120_000);

  describe('which browser prints', () => {
    let folder: string;
    before(() => {
      folder = mkdtempSync(join(tmpdir(), 'browser-choice-'));
      writeFileSync(join(folder, 'chromium'), '#!/bin/sh\nexit 0\n');
      chmodSync(join(folder, 'chromium'), 0o755);
    });
    after(() => rmSync(folder, { recursive: true, force: true }));

    it('PUPPETEER_EXECUTABLE_PATH first, even when a system Chromium exists', async () => {
      const choice = await chooseBrowser({ executablePath: join(folder, 'chromium'), searchPath: '/usr/bin' });
      expect(choice).to.deep.equal({ source: 'PUPPETEER_EXECUTABLE_PATH', executablePath: join(folder, 'chromium') });
    });

    it('a PUPPETEER_EXECUTABLE_PATH that is not executable is refused by name', async () => {
      const error = await chooseBrowser({ executablePath: join(folder, 'nothing-here') }).catch((e: Error) => e);
      expect(String(error)).to.include('PUPPETEER_EXECUTABLE_PATH=').and.include('not an executable file');
    });

    it('then a system Chromium on PATH', async () => {
      const choice = await chooseBrowser({ searchPath: folder });
      expect(choice).to.deep.equal({ source: 'system', executablePath: join(folder, 'chromium') });
    });

    it('else the Chromium shipped in the @sparticuz/chromium package, unpacked once into the tools cache', async () => {
      const choice = await chooseBrowser({ searchPath: join(folder, 'empty') });
      expect(choice.source).to.equal('packaged');
      expect(choice.executablePath.startsWith(toolsCacheDir())).to.equal(true);
      expect(existsSync(choice.executablePath)).to.equal(true);
      expect(await packagedChromium()).to.equal(choice.executablePath);
    });
  });

  it('the packaged Chromium prints a catalogue letter on A4 in the packaged typeface', async () => {
    const pool = new BrowserPool({ pages: 1, choose: async () => ({ source: 'packaged', executablePath: await packagedChromium() }) });
    try {
      const pdf = await printLetter(pool, boxLetter());
      expect(pool.choice?.source).to.equal('packaged');
      const facts = await readPdf(pdf);
      expect(facts.pages).to.equal(1);
      expect(facts.pageSizes[0][0]).to.be.closeTo(595.3, 1);
      expect(facts.pageSizes[0][1]).to.be.closeTo(841.9, 1);
      expect(facts.text.replace(/\s+/g, ' ')).to.include('Marie Dupont').and.include('Lyon, le 1er mars 2026');
      expect(facts.fonts.map((f) => f.name.split('+')[1]).sort()).to.deep.equal(['Tinos-Bold', 'Tinos-Regular']);
      expect(facts.fonts.every((f) => f.embedded)).to.equal(true);
    } finally {
      await pool.close();
    }
  });

  it('dies with its worker: a SIGKILLed worker leaves no browser process behind', async () => {
    const taskQueue = `pdf-kill-${randomUUID()}`;
    let output = '';
    const worker = spawnNode('worker', { TEMPORAL_TASK_QUEUE: taskQueue, LOG_LEVEL: 'info' }, 'pipe');
    worker.stdout!.on('data', (chunk) => (output += chunk));
    worker.stderr!.on('data', (chunk) => (output += chunk));
    try {
      const pdf = await stack().temporal.client.workflow.execute(letterPdf, { taskQueue, workflowId: `letter-pdf-${randomUUID()}`, args: [boxLetter()] });
      expect(
        Buffer.from(pdf as Uint8Array)
          .subarray(0, 5)
          .toString(),
      ).to.equal('%PDF-');
      // The log is written in blocks, flushed every second: wait for the line.
      const startedLines = () => output.split('\n').filter((line) => line.includes('PDF browser started'));
      for (const deadline = Date.now() + 5_000; startedLines().length === 0 && Date.now() < deadline;) await sleep(100);
      const started = startedLines().map((line) => JSON.parse(line) as { pid: number });
      expect(started, output).to.have.length(1);
      const browserPid = started[0].pid;
      expect(processGroup(browserPid).length, 'the browser runs before the kill').to.be.greaterThan(0);

      const exited = once(worker, 'exit');
      worker.kill('SIGKILL');
      await exited;
      const deadline = Date.now() + 10_000;
      while (processGroup(browserPid).length > 0 && Date.now() < deadline) await sleep(100);
      expect(processGroup(browserPid), 'browser processes still running after the worker died').to.deep.equal([]);
    } finally {
      if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    }
  });
});
