import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * AR24's API as its published documents describe it (developers.ar24.fr/doc, the knowledge base's
 * pages on signing and decrypting, sender accounts, identity verification and webhooks; the choices
 * they leave open are in docs/electronic-registered-letters.md). Written from those documents, not
 * from our client: its own signature check and encryption. Every answer is HTTP 200 (as AR24's); a
 * success is encrypted, an error, the maintenance answer and a proof's PDF are in clear.
 *
 * Faults: `maintenanceNext` answers that many calls with `{"status":"maintenance"}`, `failNext`
 * with a 502, `faultRate` a share of calls with either (half each), `dropNextMailAnswer` takes
 * the next mail and then drops the connection before answering, `holdNextMail()` takes the next
 * mail and holds its answer until released (for a test that kills the caller meanwhile).
 */

export const AR24_TOKEN = 'stand-in-token-0f3c';
export const AR24_PRIVATE_KEY = 'stand-in-private-key-7X9gx9E3';

/** Our reading of the slugs AR24 answers a wrong signature and a stale date with (activities/partners/ar24.ts, AUTH_SLUGS). */
export const WRONG_SIGNATURE_SLUG = 'invalid_signature';
export const STALE_DATE_SLUG = 'expired_date';

type MailStatus = 'waiting' | 'dp' | 'ev' | 'AR' | 'refused' | 'negligence' | 'bounced';
type ProofCode = 'dp' | 'ar' | 'rf' | 'ng';

interface StandInUser {
  id: number;
  email: string;
  fields: Record<string, string>;
  identity: 'unverified' | 'requested' | 'verified';
}

interface StandInMail {
  id: number;
  userId: number;
  fields: Record<string, string>;
  attachmentSha256: string;
  status: MailStatus;
  dates: Partial<Record<'date' | 'ts_ev_date' | 'view_date' | 'refused_date' | 'negligence_date' | 'bounced_date', string>>;
  proofs: Partial<Record<ProofCode, Buffer>>;
}

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
const parisClock = (at: Date): string =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Paris', dateStyle: 'short', timeStyle: 'medium', hourCycle: 'h23' }).format(at);

/** The date AR24 reads, as a Date: the Paris wall clock back to an instant (either offset; the nearer to now wins). */
function parisInstant(text: string, now: number): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!match) return undefined;
  const wall = Date.UTC(+match[1]!, +match[2]! - 1, +match[3]!, +match[4]!, +match[5]!, +match[6]!);
  return [wall - 3_600_000, wall - 7_200_000].sort((a, b) => Math.abs(a - now) - Math.abs(b - now))[0];
}

export class Ar24StandIn {
  maintenanceNext = 0;
  failNext = 0;
  /** A share of calls (0 to 1) answered with maintenance or a 502, half each. */
  faultRate = 0;
  dropNextMailAnswer = false;
  private mailHold: { reached: () => void; released: Promise<void> } | undefined;
  /** Shifts the stand-in's clock: a date our client sends then looks stale to it. */
  clockOffsetMs = 0;
  /** Each call as `METHOD /path`, and what it answered (`ok`, a slug, `maintenance`, `502`, `dropped`, `held`). */
  calls: { route: string; answer: string }[] = [];
  readonly users = new Map<number, StandInUser>();
  readonly mails = new Map<number, StandInMail>();
  private readonly attachments = new Map<string, { userId: number; sha256: string }>();
  private nextId = 1000;
  private server: Server | undefined;

  get apiUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/api`;
  }

  clearFaults(): void {
    this.maintenanceNext = 0;
    this.failNext = 0;
    this.faultRate = 0;
    this.dropNextMailAnswer = false;
    this.mailHold = undefined;
    this.clockOffsetMs = 0;
  }

  /**
   * The next `POST /mail/` is done (the mail taken) but its answer held: `reached` resolves when it
   * arrives, `release()` drops its connection unanswered.
   */
  holdNextMail(): { reached: Promise<void>; release(): void } {
    let reached!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.mailHold = { reached, released };
    return { reached: arrived, release };
  }

  /** The mails AR24 holds with this reference (our mailing id). */
  mailsWithReference(reference: string): StandInMail[] {
    return [...this.mails.values()].filter((mail) => mail.fields.ref_dossier === reference);
  }

  /** AR24's verification done (in production: the sender received its OTP key by post). */
  verifyIdentity(email: string): void {
    const user = [...this.users.values()].find((u) => u.email === email);
    if (!user) throw new Error(`no AR24 user ${email}`);
    user.identity = 'verified';
  }

  /** Moves a mail on, as its recipient (or AR24's clock) would, with the proof that state brings. */
  async move(mailId: number, status: Exclude<MailStatus, 'waiting' | 'dp'>): Promise<void> {
    const mail = this.mails.get(mailId);
    if (!mail) throw new Error(`no AR24 mail ${mailId}`);
    const now = parisClock(new Date(Date.now() + this.clockOffsetMs));
    mail.status = status;
    const dated = { ev: 'ts_ev_date', AR: 'view_date', refused: 'refused_date', negligence: 'negligence_date', bounced: 'bounced_date' } as const;
    mail.dates[dated[status]] = now;
    const proof = ({ AR: 'ar', refused: 'rf', negligence: 'ng' } as const)[status as 'AR' | 'refused' | 'negligence'];
    if (proof) mail.proofs[proof] = await proofPdf(mail, proof);
  }

  /** Posts AR24's webhook for a mail to `url` (form-encoded: the mail, its user, its new status). */
  async postCallback(url: string, mailId: number): Promise<number> {
    const mail = this.mails.get(mailId)!;
    const response = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ id_mail: String(mail.id), id_user: String(mail.userId), status: mail.status }),
    });
    return response.status;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String((error as Error).message));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = `${req.method} ${url.pathname.replace(/\/\d+\//g, '/:id/')}`;
    const record = (answer: string): void => void this.calls.push({ route, answer });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);

    // Faults come before any work: a maintenance answer or a 502 did nothing.
    const draw = this.faultRate > 0 ? Math.random() : 1;
    if (this.maintenanceNext > 0 || draw < this.faultRate / 2) {
      if (this.maintenanceNext > 0) this.maintenanceNext -= 1;
      record('maintenance');
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"maintenance"}');
    }
    if (this.failNext > 0 || draw < this.faultRate) {
      if (this.failNext > 0) this.failNext -= 1;
      record('502');
      return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad Gateway</html>');
    }

    const params = new Map<string, string>(url.searchParams);
    const files = new Map<string, Buffer>();
    if (req.method === 'POST') {
      const form = await new Request('http://localhost/', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: raw,
      }).formData();
      for (const [name, value] of form) {
        if (typeof value === 'string') params.set(name, value);
        else files.set(name, Buffer.from(await value.arrayBuffer()));
      }
    }
    const clear = (body: object, answer: string): void => {
      record(answer);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const error = (slug: string, message: string): void => clear({ status: 'ERROR', slug, message }, slug);

    // Authentication, as the knowledge base says: our token, a date from now to ten minutes on, its signature.
    const date = params.get('date') ?? '';
    if (params.get('token') !== AR24_TOKEN) return error('invalid_token', 'Invalid token');
    const now = Date.now() + this.clockOffsetMs;
    const sent = parisInstant(date, now);
    if (sent === undefined || sent < now - 10 * 60_000 || sent > now + 10 * 60_000) return error(STALE_DATE_SLUG, 'The date is expired or invalid');
    if (req.headers.signature !== this.signatureOf(date)) return error(WRONG_SIGNATURE_SLUG, 'Invalid signature');

    const success = (result: unknown): void => {
      record('ok');
      res.writeHead(200, { 'content-type': 'text/plain' }).end(this.encrypt(JSON.stringify({ status: 'SUCCESS', result }), date));
    };
    const user = this.users.get(Number(params.get('id_user')));
    const path = url.pathname.replace(/^\/api/, '');

    if (req.method === 'GET' && path === '/user/') {
      const found = [...this.users.values()].find((u) => u.email === params.get('email'));
      return found ? success(this.userView(found)) : error('user_not_found', 'User not found');
    }
    if (req.method === 'POST' && path === '/user/') {
      for (const required of ['email', 'firstname', 'lastname', 'statut', 'address1', 'zipcode', 'city', 'country'])
        if (!params.get(required)) return error('missing_parameter', `Missing ${required}`);
      if ([...this.users.values()].some((u) => u.email === params.get('email')))
        return error('user_already_exist', 'A user with the same email address already exists');
      if (params.get('statut') === 'professionnel' && params.get('country') === 'FR' && !params.get('company_siret'))
        return error('missing_company_siret', 'company_siret is required for a French professional');
      const created: StandInUser = { id: this.nextId++, email: params.get('email')!, fields: Object.fromEntries(params), identity: 'unverified' };
      this.users.set(created.id, created);
      return success(this.userView(created));
    }
    // A proof's link is signed and dated as any call, and names its mail alone.
    const proof = /^\/proof\/(\d+)\/(dp|ar|rf|ng)$/.exec(path);
    if (req.method === 'GET' && proof) {
      const pdf = this.mails.get(Number(proof[1]))?.proofs[proof[2] as ProofCode];
      if (!pdf) return error('proof_not_found', 'Proof not available');
      record('ok');
      return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf);
    }
    if (!user) return error('user_not_found', 'User not found');
    if (req.method === 'POST' && path === '/user/identity') {
      if (user.identity !== 'unverified') return error('identity_already_requested', 'An identity verification was already requested');
      user.identity = 'requested';
      return success({ id_user: user.id });
    }
    if (req.method === 'POST' && path === '/attachment/') {
      const file = files.get('file');
      if (!file || file.subarray(0, 5).toString('latin1') !== '%PDF-') return error('invalid_file', 'The file is missing or not a PDF');
      const id = randomBytes(8).toString('hex');
      this.attachments.set(id, { userId: user.id, sha256: createHash('sha256').update(file).digest('hex') });
      return success({ file_id: id });
    }
    if (req.method === 'POST' && path === '/mail/') {
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(params.get('to_email') ?? '')) return error('invalid_recipient', 'The recipient email is invalid');
      if (!['professionnel', 'particulier'].includes(params.get('dest_statut') ?? '')) return error('invalid_dest_statut', 'dest_statut is invalid');
      if (params.get('eidas') === '1' && user.identity !== 'verified') return error('identity_not_verified', "The sender's identity is not verified");
      const attachment = this.attachments.get(params.get('attachment[0]') ?? '');
      if (!attachment || attachment.userId !== user.id) return error('invalid_attachment', 'Unknown attachment');
      const mail: StandInMail = {
        id: this.nextId++,
        userId: user.id,
        fields: Object.fromEntries(params),
        attachmentSha256: attachment.sha256,
        status: 'dp',
        dates: { date: parisClock(new Date(now)) },
        proofs: {},
      };
      mail.proofs.dp = await proofPdf(mail, 'dp');
      this.mails.set(mail.id, mail);
      if (this.dropNextMailAnswer) {
        this.dropNextMailAnswer = false;
        record('dropped');
        return void req.socket.destroy();
      }
      const hold = this.mailHold;
      if (hold) {
        this.mailHold = undefined;
        hold.reached();
        await hold.released;
        record('held');
        return void req.socket.destroy();
      }
      return success(this.mailView(mail));
    }
    if (req.method === 'GET' && path === '/mail/') {
      const mail = this.mails.get(Number(params.get('id')));
      return mail && mail.userId === user.id ? success(this.mailView(mail)) : error('mail_not_found', 'Mail not found');
    }
    if (req.method === 'GET' && path === '/user/mail') {
      const own = [...this.mails.values()].filter((mail) => mail.userId === user.id);
      const start = Number(params.get('start') ?? 0);
      const max = Math.min(100, Number(params.get('max') ?? 100));
      return success({ total: own.length, mails: own.slice(start, start + max).map((mail) => this.mailView(mail)) });
    }
    return error('unknown_route', 'Unknown route');
  }

  private userView(user: StandInUser): Record<string, unknown> {
    return {
      id: user.id,
      email: user.email,
      firstname: user.fields.firstname,
      lastname: user.fields.lastname,
      ...(user.identity === 'verified' ? { is_identity_verified: 1 } : {}),
    };
  }

  private mailView(mail: StandInMail): Record<string, unknown> {
    const proofUrl = (code: ProofCode): string | null => (mail.proofs[code] ? `${this.apiUrl}/proof/${mail.id}/${code}` : null);
    return {
      id: mail.id,
      status: mail.status,
      ref_dossier: mail.fields.ref_dossier ?? null,
      to_email: mail.fields.to_email,
      ...mail.dates,
      proof_dp_url: proofUrl('dp'),
      proof_ar_url: proofUrl('ar'),
      proof_rf_url: proofUrl('rf'),
      proof_ng_url: proofUrl('ng'),
    };
  }

  /** The knowledge base's recipe: AES-256 of the date, key a SHA-256 of the private key (32), iv its double hash (16). */
  private signatureOf(date: string): string {
    const cipher = createCipheriv(
      'aes-256-cbc',
      Buffer.from(sha256Hex(AR24_PRIVATE_KEY).slice(0, 32)),
      Buffer.from(sha256Hex(sha256Hex(AR24_PRIVATE_KEY)).slice(0, 16)),
    );
    return cipher.update(date, 'utf8', 'base64') + cipher.final('base64');
  }

  /** An answer encrypted as the knowledge base's decryption example expects: key from the date and the private key. */
  private encrypt(text: string, date: string): string {
    const cipher = createCipheriv(
      'aes-256-cbc',
      Buffer.from(sha256Hex(date + AR24_PRIVATE_KEY).slice(0, 32)),
      Buffer.from(sha256Hex(sha256Hex(AR24_PRIVATE_KEY)).slice(0, 16)),
    );
    return cipher.update(text, 'utf8', 'base64') + cipher.final('base64');
  }
}

/** The knowledge base's decryption example, as a reader of the stand-in's answers would run it (its own check). */
export function decryptAsDocumented(output: string, date: string, privateKey: string): string {
  const decipher = createDecipheriv(
    'aes-256-cbc',
    Buffer.from(sha256Hex(date + privateKey).slice(0, 32)),
    Buffer.from(sha256Hex(sha256Hex(privateKey)).slice(0, 16)),
  );
  return decipher.update(output, 'base64', 'utf8') + decipher.final('utf8');
}

const PROOF_TITLES: Record<ProofCode, string> = {
  dp: 'Preuve de depot et d envoi',
  ar: 'Preuve de reception',
  rf: 'Preuve de refus',
  ng: 'Preuve de negligence',
};

/** A proof of the stand-in: its kind, the mail and the moment, so that each proof's bytes differ. */
async function proofPdf(mail: StandInMail, code: ProofCode): Promise<Buffer> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setProducer('AR24 stand-in');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595.28, 841.89]);
  const lines = [
    PROOF_TITLES[code],
    `LRE ${mail.id}`,
    `ref ${mail.fields.ref_dossier ?? ''}`,
    `contenu ${mail.attachmentSha256}`,
    `${new Date().toISOString()}`,
  ];
  lines.forEach((text, i) => page.drawText(text, { x: 56, y: 780 - i * 20, size: 11, font }));
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}
