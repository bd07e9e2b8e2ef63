import { expect } from 'chai';
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ar24Provider, type Ar24Records } from '../../activities/lre/ar24.js';
import { ProviderRejectedError, ProviderUnavailableError, type ElectronicProvider } from '../../activities/lre/electronic-provider.js';
import { LreSimulator, type SimulatedOutcome } from '../../activities/lre/simulator.js';
import { Ar24Client, Ar24Error } from '../../activities/partners/ar24.js';
import type { ElectronicProofKind, ElectronicSender, ElectronicSending, ElectronicState } from '../../domain/mailings/electronic.js';
import { AR24_PRIVATE_KEY, AR24_TOKEN, Ar24StandIn, STALE_DATE_SLUG, WRONG_SIGNATURE_SLUG } from '../support/ar24-server.js';
import { textPdf } from '../support/own-pdfs.js';
import { stack } from '../support/stack.js';

/** AR24's ids of each mailing, as the workflow's projection will keep them. */
function memoryRecords(): Ar24Records {
  const known = new Map<string, { userId: string | null; mailId: string | null }>();
  return {
    reference: async (id) => known.get(id) ?? { userId: null, mailId: null },
    remember: async (id, ref) => void known.set(id, { userId: ref.userId, mailId: ref.mailId ?? known.get(id)?.mailId ?? null }),
  };
}

const sender = (email = `sender-${randomUUID()}@example.fr`): ElectronicSender => ({
  accountId: randomUUID(),
  email,
  firstName: 'Claire',
  lastName: 'Martin',
  company: 'Gestion Martin SARL',
  siret: '85234567800012',
  address: { line: '12 rue de la Paix', postcode: '75002', city: 'Paris', country: 'FR' },
});

async function sending(from: ElectronicSender, professional = true): Promise<ElectronicSending> {
  const mailingId = randomUUID();
  return {
    mailingId,
    sender: from,
    recipient: professional
      ? { email: 'compta@client.example', firstName: 'Jean', lastName: 'Durand', company: 'Durand SA', professional: true }
      : {
          email: 'jean@example.org',
          firstName: 'Jean',
          lastName: 'Durand',
          professional: false,
          consent: { date: '2026-01-10', means: 'bail signé, article 12' },
        },
    pdf: await textPdf(),
    subject: 'Mise en demeure',
  };
}

/** Retries as Temporal would, until the send answers (a rejection ends it). */
async function sentWithRetries(provider: ElectronicProvider, what: ElectronicSending, attempts = 60): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await provider.send(what);
      return;
    } catch (error) {
      if (error instanceof ProviderRejectedError || attempt >= attempts) throw error;
    }
  }
}

/** The error a promise fails with (the test fails when it succeeds). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('AR24: the client and the adapter against the stand-in', function () {
  this.timeout(120_000);
  const standIn = new Ar24StandIn();
  const settings = (privateKey = AR24_PRIVATE_KEY) => ({ apiUrl: '', token: AR24_TOKEN, privateKey, timeoutMs: 5_000 });
  let provider: Ar24Provider;

  before(async () => {
    await standIn.start();
    provider = new Ar24Provider(new Ar24Client({ ...settings(), apiUrl: standIn.apiUrl }), memoryRecords());
  });
  afterEach(() => standIn.clearFaults());
  after(() => standIn.stop());

  /** A sender whose identity AR24 verified. */
  async function verifiedSender(): Promise<ElectronicSender> {
    const from = sender();
    await provider.requestIdentityCheck(from);
    standIn.verifyIdentity(from.email);
    return from;
  }

  it('is refused with AR24 answer on a wrong private key and on a stale date, and nothing is sent', async () => {
    const wrongKey = new Ar24Client({ ...settings('not-our-key'), apiUrl: standIn.apiUrl });
    const refused = await wrongKey.findUser('a@example.fr').catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(Ar24Error).and.include({ kind: 'auth', slug: WRONG_SIGNATURE_SLUG });
    expect((refused as Error).message)
      .to.not.include('not-our-key')
      .and.not.include(AR24_TOKEN);

    standIn.clockOffsetMs = 11 * 60_000; // AR24's clock 11 minutes ahead: our date is stale to it
    const stale = await provider.ensureSender(sender()).catch((error: unknown) => error);
    expect(stale).to.be.instanceOf(ProviderUnavailableError);
    expect((stale as Error).message).to.include(STALE_DATE_SLUG);
    standIn.clockOffsetMs = 9 * 60_000; // within the ten minutes: taken
    expect((await provider.ensureSender(sender())).identity).to.equal('unverified');
  });

  it("follows the sender's identity: unverified, requested, verified; no qualified sending before", async () => {
    const from = sender();
    expect((await provider.ensureSender(from)).identity).to.equal('unverified');
    expect(await rejection(provider.send(await sending(from)))).to.be.instanceOf(ProviderRejectedError);
    expect((await provider.requestIdentityCheck(from)).identity).to.equal('requested');
    expect((await provider.requestIdentityCheck(from)).identity).to.equal('requested'); // asked twice: one request at AR24
    expect(standIn.calls.filter((c) => c.route === 'POST /api/user/identity' && c.answer === 'ok')).to.have.length.greaterThan(0);
    standIn.verifyIdentity(from.email);
    const account = await provider.ensureSender(from);
    expect(account.identity).to.equal('verified');
    expect([...standIn.users.values()].filter((u) => u.email === from.email)).to.have.length(1);
  });

  const outcomes: { status: 'AR' | 'refused' | 'negligence' | 'bounced'; state: ElectronicState; proof?: ElectronicProofKind }[] = [
    { status: 'AR', state: 'accepted', proof: 'acceptance' },
    { status: 'refused', state: 'refused', proof: 'refusal' },
    { status: 'negligence', state: 'unclaimed', proof: 'negligence' },
    { status: 'bounced', state: 'bounced' },
  ];
  for (const { status, state, proof } of outcomes)
    it(`a full lifecycle ending ${state}, with each proof's bytes and SHA-256`, async () => {
      const from = await verifiedSender();
      const letter = await sending(from, state === 'accepted');
      const deposit = await provider.send(letter);
      expect(deposit).to.include({ state: 'sent' });
      expect(deposit.proofs).to.deep.equal(['deposit']);
      const [mail] = standIn.mailsWithReference(letter.mailingId);
      expect(mail!.fields).to.include({ eidas: '1', dest_statut: state === 'accepted' ? 'professionnel' : 'particulier', to_email: letter.recipient.email });
      expect(mail!.attachmentSha256).to.equal(sha256(letter.pdf));

      await standIn.move(mail!.id, 'ev');
      expect((await provider.status(letter.mailingId)).state).to.equal('notified');
      await standIn.move(mail!.id, status);
      const end = await provider.status(letter.mailingId);
      expect(end.state).to.equal(state);
      expect(end.proofs).to.deep.equal(proof ? ['deposit', proof] : ['deposit']);

      const depositPdf = await provider.proof(letter.mailingId, 'deposit');
      expect(sha256(depositPdf)).to.equal(sha256(mail!.proofs.dp!));
      if (proof) {
        const endPdf = await provider.proof(letter.mailingId, proof);
        expect(Buffer.from(endPdf).subarray(0, 5).toString()).to.equal('%PDF-');
        expect(sha256(endPdf)).to.not.equal(sha256(depositPdf));
        expect(sha256(endPdf)).to.equal(sha256(Object.values(mail!.proofs).at(-1)!));
      }
      if (state === 'bounced') expect((await rejection(provider.proof(letter.mailingId, 'acceptance'))).message).to.match(/no acceptance proof/);
    });

  it("names the mailing a callback is about (AR24's webhook carries its mail, the mail our reference)", async () => {
    const from = await verifiedSender();
    const letter = await sending(from);
    await provider.send(letter);
    const [mail] = standIn.mailsWithReference(letter.mailingId);
    await standIn.move(mail!.id, 'AR');
    const bodies: string[] = [];
    const receiver = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        bodies.push(text);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      expect(await standIn.postCallback(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ar24`, mail!.id)).to.equal(200);
    } finally {
      receiver.close();
    }
    expect(await provider.callbackMailing(bodies[0])).to.equal(letter.mailingId);
    expect(await provider.callbackMailing('id_mail=999999')).to.equal(undefined);
  });

  it('a send whose answer was lost is found by the retry, not sent again', async () => {
    const from = await verifiedSender();
    const letter = await sending(from);
    standIn.dropNextMailAnswer = true;
    const lost = await provider.send(letter).catch((error: unknown) => error);
    expect(lost).to.be.instanceOf(Ar24Error).and.include({ kind: 'unknown' });
    expect(standIn.mailsWithReference(letter.mailingId)).to.have.length(1);
    const found = await provider.send(letter);
    expect(found.state).to.equal('sent');
    expect(standIn.mailsWithReference(letter.mailingId)).to.have.length(1);
  });

  it('30 mailings sent at once while 20 % of calls answer maintenance or a 5xx: exactly one AR24 mail each', async () => {
    const from = await verifiedSender();
    const letters = await Promise.all(Array.from({ length: 30 }, () => sending(from)));
    standIn.faultRate = 0.2;
    const before = standIn.calls.length;
    await Promise.all(letters.map((letter) => sentWithRetries(provider, letter)));
    const faults = standIn.calls.slice(before).filter((c) => c.answer === 'maintenance' || c.answer === '502');
    expect(faults.length).to.be.greaterThan(5); // the faults did happen
    for (const letter of letters) expect(standIn.mailsWithReference(letter.mailingId), letter.mailingId).to.have.length(1);
    standIn.clearFaults();
    for (const letter of letters) expect((await provider.status(letter.mailingId)).state).to.equal('sent');
  });
});

describe('the LRE simulator through the same interface', function () {
  this.timeout(60_000);
  const outcomes: SimulatedOutcome[] = ['accepted', 'refused', 'unclaimed', 'bounced'];

  it("verifies a sender's identity one step after it is asked, and refuses to send before", async () => {
    const simulator = new LreSimulator(stack().db, { stepDelayMs: 300 });
    const from = sender();
    expect((await simulator.ensureSender(from)).identity).to.equal('unverified');
    expect(await rejection(simulator.send(await sending(from)))).to.be.instanceOf(ProviderRejectedError);
    expect((await simulator.requestIdentityCheck(from)).identity).to.equal('requested');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect((await simulator.ensureSender(from)).identity).to.equal('verified');
  });

  for (const outcome of outcomes)
    it(`a full lifecycle ending ${outcome}, sent once however many times it is asked`, async () => {
      const simulator = new LreSimulator(stack().db, { stepDelayMs: 0 });
      const from = sender();
      await simulator.requestIdentityCheck(from);
      const letter = await sending(from, false);
      const sends = await Promise.all(Array.from({ length: 10 }, () => simulator.send(letter)));
      expect(new Set(sends.map((news) => news.providerReference)).size).to.equal(1);
      const { rows } = await stack().db.raw('SELECT count(*)::int AS n FROM lre_simulator_mails WHERE mailing_id = ?', [letter.mailingId]);
      expect(rows[0].n).to.equal(1);
      expect((await simulator.status(letter.mailingId)).state).to.equal('notified');
      const end = await simulator.advance(letter.mailingId, outcome);
      expect(end.state).to.equal(outcome);
      expect((await simulator.advance(letter.mailingId, outcome === 'accepted' ? 'refused' : 'accepted')).state).to.equal(outcome);
      const deposit = await simulator.proof(letter.mailingId, 'deposit');
      expect(Buffer.from(deposit).subarray(0, 5).toString()).to.equal('%PDF-');
      const kinds = end.proofs.filter((kind) => kind !== 'deposit');
      expect(kinds).to.deep.equal(outcome === 'bounced' ? [] : [{ accepted: 'acceptance', refused: 'refusal', unclaimed: 'negligence' }[outcome]]);
      for (const kind of kinds) expect(sha256(await simulator.proof(letter.mailingId, kind))).to.not.equal(sha256(deposit));
      expect(await simulator.callbackMailing({ mailingId: letter.mailingId })).to.equal(letter.mailingId);
    });
});
