import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import proto from '@temporalio/proto';
import { projectRoot } from '../../lib/paths.js';
import { replayHistories } from '../../worker/replay.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { distRoot } from '../../lib/paths.js';
import { call, createAccount } from '../support/api.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';

/**
 * Histories recorded with the build of commit ad60bcf (before the workflow changes of issues 12
 * and 13): finished mailings and mailings still in flight, test and live. Today's workflow code
 * must replay every one of them, or a deploy would break the mailings already running.
 */
const folder = join(projectRoot, 'test', 'fixtures', 'histories');

describe('replay of recorded mailing histories against this build', function () {
  this.timeout(120_000);

  it('replays every recorded history without a non-determinism error', async () => {
    const files = readdirSync(folder).filter((f) => f.endsWith('.binpb'));
    expect(files.length).to.be.at.least(7);
    const histories = files.map((file) => ({
      workflowId: file.replace(/\.binpb$/, ''),
      history: proto.temporal.api.history.v1.History.decode(readFileSync(join(folder, file))),
    }));
    const outcomes = await replayHistories(histories);
    expect(outcomes.map((o) => o.workflowId).sort()).to.deep.equal(histories.map((h) => h.workflowId).sort());
    for (const outcome of outcomes) expect(outcome.error?.message, outcome.workflowId).to.equal(undefined);
  });

  it('npm run replay: replays the mailings running on the server, before a deploy', async () => {
    const account = await createAccount();
    const created = await call('POST', '/v1/mailings', { key: account.testKey, body: { mode: 'ar', letter: freeLetter, sender, recipient } });
    expect(created.status).to.equal(201);
    const { stdout } = await promisify(execFile)(process.execPath, [join(distRoot, 'scripts', 'replay.js'), '--limit', '50'], { env: process.env });
    const report = JSON.parse(stdout) as { replayed: number; failed: unknown[] };
    expect(report.replayed).to.be.at.least(1);
    expect(report.failed).to.deep.equal([]);
  });
});
