import { expect } from 'chai';
import { createHash, randomUUID } from 'node:crypto';
import { call, createAccount, eventually, type TestAccount } from '../support/api.js';
import { stack } from '../support/stack.js';
import { freeLetter, recipient, sender } from '../support/fixtures.js';
import { eraseMailingPersonalData } from '../../domain/privacy/erasure.js';
import { applyRetention } from '../../workflows/maintenance.js';
import { MAILING_RETENTION_DEFAULT_DAYS } from '../../domain/privacy/retention.js';

const DAY = 86_400_000;
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Retention applied (the `mailing-retention` Schedule's workflow, run against the stack with the
 * mailings' end moved back in the database) and per-mailing erasure through the API.
 */
describe('retention and erasure of mailings', function () {
  this.timeout(120_000);
  let account: TestAccount;

  before(async () => {
    account = await createAccount({ balanceCents: 10_000 });
  });

  const post = (key: string, body: unknown) => call('POST', '/v1/mailings', { key, body });
  const erase = (id: string, key = account.testKey, headers: Record<string, string> = {}) => call('POST', `/v1/mailings/${id}/erase`, { key, headers });
  const get = (id: string, key = account.testKey) => call('GET', `/v1/mailings/${id}`, { key });
  /** A test mailing, final: `delivered` (registered), with its filing and delivery proofs. */
  async function delivered(key = account.testKey): Promise<string> {
    const { body } = await post(key, { mode: 'registered', letter: freeLetter, sender, recipient });
    expect((await call('POST', `/v1/test/mailings/${body.id}/advance`, { key, body: { step: 4 } })).body.status).to.equal('delivered');
    return body.id;
  }
  /**
   * Moves the mailing's history back by `days`, its making with it (as for a mailing that did end
   * that long ago: the retention scan reads only mailings made before their account's term).
   */
  const endedDaysAgo = async (id: string, days: number) => {
    await stack().db.raw(`UPDATE shipment_events SET at = at - make_interval(days => ?) WHERE shipment_id = ?`, [days, id]);
    await stack().db.raw(`UPDATE shipments SET created_at = created_at - make_interval(days => ?) WHERE id = ?`, [days, id]);
  };
  const runRetention = (options: { now?: string; limit?: number } = {}) =>
    stack().temporal.client.workflow.execute(applyRetention, {
      taskQueue: stack().config.taskQueue,
      workflowId: `test-retention-${randomUUID()}`,
      args: [options],
    });
  const erasedAt = async (id: string): Promise<Date | null> => (await stack().db('shipments').where({ id }).first('erased_at')).erased_at;

  describe('POST /v1/mailings/{id}/erase', () => {
    it('erases a final test mailing: 200 with the erased Shipment, which GET answers from then on; proofs answer 404 proof_erased with their SHA-256', async () => {
      const id = await delivered();
      const before = await get(id);
      expect(before.body.erasedAt).to.equal(null);
      const link = await call('GET', `/v1/mailings/${id}/proofs/delivery`, { key: account.testKey });
      expect(link.status).to.equal(200);
      const pdf = await fetch(link.body.url).then(async (r) => Buffer.from(await r.arrayBuffer()));
      expect(link.body.sha256, 'the link gives the hash of what it serves').to.equal(sha256(pdf));

      const res = await erase(id);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.erasedAt).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(res.body.recipient).to.deep.equal(['(effacé)']);
      expect(res.body.document).to.deep.equal({ kind: 'free', title: '(effacé)', text: '' });
      expect(res.body).to.include({ amountCents: 0, status: 'delivered', trackingNumber: before.body.trackingNumber });
      expect(res.body.events).to.deep.equal(before.body.events);
      expect(res.body.proofs).to.deep.equal(before.body.proofs);
      expect((await get(id)).body).to.deep.equal(res.body);

      const proof = await call('GET', `/v1/mailings/${id}/proofs/delivery`, { key: account.testKey });
      expect(proof.status).to.equal(404);
      expect(proof.body.error.code).to.equal('proof_erased');
      expect(proof.body.error.details).to.deep.equal({ kind: 'delivery', sha256: sha256(pdf) });
      const old = await fetch(link.body.url);
      expect(old.status, 'a link asked for before').to.equal(404);
      expect(((await old.json()) as { error: { code: string } }).error.code).to.equal('proof_erased');

      const again = await erase(id);
      expect(again.status).to.equal(200);
      expect(again.body.erasedAt).to.equal(res.body.erasedAt);
    });

    it('answers 409 mailing_not_final before the mailing is final, 404 for an unknown id or another environment’s mailing', async () => {
      const { body } = await post(account.testKey, { mode: 'simple', letter: freeLetter, sender, recipient });
      const refused = await erase(body.id);
      expect(refused.status).to.equal(409);
      expect(refused.body.error).to.deep.include({ code: 'mailing_not_final', details: { status: 'paid' } });
      expect((await get(body.id)).body.erasedAt).to.equal(null);
      expect((await erase(randomUUID())).status).to.equal(404);
      expect((await erase(body.id, account.liveKey)).status).to.equal(404);
      const other = await createAccount();
      expect((await erase(body.id, other.testKey)).status).to.equal(404);
      expect((await erase('not-a-uuid')).status).to.equal(400);
    });

    it('erases a final live mailing (canceled) and keeps its amount; replays under the same Idempotency-Key', async () => {
      const tomorrow = new Date(Date.now() + 36 * 3600_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Paris' });
      const { body } = await post(account.liveKey, { mode: 'simple', letter: freeLetter, sender, recipient, sendAt: tomorrow });
      expect((await erase(body.id, account.liveKey)).status).to.equal(409);
      expect((await call('POST', `/v1/mailings/${body.id}/cancel`, { key: account.liveKey })).body.status).to.equal('canceled');
      const key = randomUUID();
      const first = await erase(body.id, account.liveKey, { 'idempotency-key': key });
      expect(first.status).to.equal(200);
      expect(first.body).to.include({ amountCents: body.amountCents, status: 'canceled', test: false });
      expect(first.body.erasedAt).to.be.a('string');
      const replay = await erase(body.id, account.liveKey, { 'idempotency-key': key });
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(replay.body).to.deep.equal(first.body);
    });

    it('requires the mailings:write scope', async () => {
      const id = await delivered();
      const readOnly = await createAccount({ scopes: ['mailings:read'] });
      expect((await erase(id, readOnly.testKey)).status).to.equal(403);
    });

    it('a GET the API has cached shows an erasure made elsewhere (the schedule, the CLI) at once', async () => {
      const id = await delivered();
      expect((await get(id)).body.erasedAt).to.equal(null);
      expect((await get(id)).body.erasedAt, 'served from the cache').to.equal(null);
      await eraseMailingPersonalData(stack().db, id);
      const seen = await eventually(
        async () => (await get(id)).body,
        (m) => m.erasedAt !== null,
        1000,
      );
      expect(seen.recipient).to.deep.equal(['(effacé)']);
    });
  });

  describe('the mailing-retention Schedule (applyRetention)', () => {
    it('erases a final mailing once its account’s retention period is over, not a day before; the default is five years', async () => {
      const owner = await createAccount();
      expect((await stack().db('accounts').where({ id: owner.id }).first('retention_days')).retention_days).to.equal(MAILING_RETENTION_DEFAULT_DAYS);
      const old = await delivered(owner.testKey);
      const recent = await delivered(owner.testKey);
      await endedDaysAgo(old, MAILING_RETENTION_DEFAULT_DAYS + 1);
      await endedDaysAgo(recent, MAILING_RETENTION_DEFAULT_DAYS - 1);
      await runRetention();
      expect(await erasedAt(old)).to.be.instanceOf(Date);
      expect(await erasedAt(recent)).to.equal(null);
      // Its own clock: the day it passes the term, the other goes too.
      await runRetention({ now: new Date(Date.now() + 2 * DAY).toISOString() });
      expect(await erasedAt(recent)).to.be.instanceOf(Date);
      const proofs = await stack().db('shipment_proofs').where({ shipment_id: recent });
      expect(proofs.map((p) => p.pdf)).to.deep.equal([null, null]);
      expect(proofs.every((p) => /^[0-9a-f]{64}$/.test(p.sha256))).to.equal(true);
    });

    it('is the worker’s registered Schedule: a run it starts erases what is past its term', async () => {
      const owner = await createAccount();
      const id = await delivered(owner.testKey);
      await endedDaysAgo(id, MAILING_RETENTION_DEFAULT_DAYS + 1);
      const schedule = stack().temporal.client.schedule.getHandle('mailing-retention');
      const described = await schedule.describe();
      expect(described.action).to.deep.include({ type: 'startWorkflow', workflowType: 'applyRetention' });
      expect(described.spec.intervals?.map((i) => i.every)).to.deep.equal([3_600_000]);
      await schedule.trigger();
      expect(
        await eventually(
          () => erasedAt(id),
          (at) => at !== null,
          20_000,
          200,
        ),
      ).to.be.instanceOf(Date);
    });

    it('applies the account’s own period (set within its bounds), and never erases a mailing that is not final', async () => {
      const owner = await createAccount();
      await stack().db('accounts').where({ id: owner.id }).update({ retention_days: 30 });
      const final = await delivered(owner.testKey);
      const { body: waiting } = await post(owner.testKey, { mode: 'simple', letter: freeLetter, sender, recipient });
      await endedDaysAgo(final, 31);
      await endedDaysAgo(waiting.id, 400);
      await runRetention();
      expect(await erasedAt(final)).to.be.instanceOf(Date);
      expect(await erasedAt(waiting.id)).to.equal(null);
      for (const days of [29, 3654])
        expect(
          await stack()
            .db('accounts')
            .where({ id: owner.id })
            .update({ retention_days: days })
            .then(
              () => 'accepted',
              (e: Error) => e.message,
            ),
          `${days} days`,
        ).to.include('accounts_retention_days_bounds');
    });

    it('works through more mailings than one pass takes', async () => {
      const owner = await createAccount();
      const ids = await Promise.all([delivered(owner.testKey), delivered(owner.testKey), delivered(owner.testKey)]);
      for (const id of ids) await endedDaysAgo(id, MAILING_RETENTION_DEFAULT_DAYS + 10);
      const result = await runRetention({ limit: 1 });
      expect(result.mailings).to.be.at.least(3);
      for (const id of ids) expect(await erasedAt(id)).to.be.instanceOf(Date);
    });

    it('one mailing whose erasure fails does not keep the others past their term: logged, counted, tried again at the next run', async () => {
      const owner = await createAccount();
      const ids = await Promise.all([delivered(owner.testKey), delivered(owner.testKey), delivered(owner.testKey)]);
      for (const id of ids) await endedDaysAgo(id, MAILING_RETENTION_DEFAULT_DAYS + 10);
      // The first in line refuses its erasure (what a row the statements refuse would do).
      const [stuck] = (await stack().db('shipments').whereIn('id', ids).orderBy('created_at').select('id')).map((r) => r.id as string);
      const db = stack().db;
      await db.raw(`CREATE FUNCTION refuse_erasure_in_test() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.erased_at IS NOT NULL AND OLD.id = '${stuck}' THEN RAISE EXCEPTION 'test: this erasure fails'; END IF; RETURN NEW; END $$`);
      await db.raw('CREATE TRIGGER refuse_erasure_in_test BEFORE UPDATE ON shipments FOR EACH ROW EXECUTE FUNCTION refuse_erasure_in_test()');
      try {
        const result = await runRetention();
        expect(result.failedMailings).to.equal(1);
        expect(await erasedAt(stuck!)).to.equal(null);
        for (const id of ids.filter((i) => i !== stuck)) expect(await erasedAt(id), id).to.be.instanceOf(Date);
      } finally {
        await db.raw('DROP TRIGGER refuse_erasure_in_test ON shipments');
        await db.raw('DROP FUNCTION refuse_erasure_in_test()');
      }
      const next = await runRetention();
      expect(next.failedMailings).to.equal(0);
      expect(await erasedAt(stuck!)).to.be.instanceOf(Date);
    });

    it('deletes audit log entries older than a year, and no others', async () => {
      const owner = await createAccount();
      const { db } = stack();
      const entry = (daysAgo: number) =>
        db('audit_log')
          .insert({
            account_id: owner.id,
            action: 'key.created',
            target_type: 'key',
            target_id: randomUUID(),
            actor_type: 'system',
            client_address: '192.0.2.1',
            created_at: new Date(Date.now() - daysAgo * DAY),
          })
          .returning('id');
      const [[old], [kept]] = await Promise.all([entry(366), entry(300)]);
      const result = await runRetention();
      expect(result.auditEntries).to.be.at.least(1);
      expect(await db('audit_log').where({ id: old.id }).first()).to.equal(undefined);
      expect(await db('audit_log').where({ id: kept.id }).first()).to.not.equal(undefined);
      const refused = await db('audit_log')
        .where({ id: kept.id })
        .delete()
        .then(
          () => 'deleted',
          (e: Error) => e.message,
        );
      expect(refused, 'younger entries stay append-only').to.include('append-only');
    });

    it('an erasure on request racing the schedule leaves one erasure, recorded once', async () => {
      const owner = await createAccount();
      const id = await delivered(owner.testKey);
      await endedDaysAgo(id, MAILING_RETENTION_DEFAULT_DAYS + 1);
      const [api] = await Promise.all([erase(id, owner.testKey), runRetention(), runRetention()]);
      expect(api.status).to.equal(200);
      expect(await stack().db('audit_log').where({ action: 'mailing.erased', target_id: id })).to.have.length(1);
      expect((await get(id, owner.testKey)).body.erasedAt).to.equal(api.body.erasedAt);
    });
  });
});
