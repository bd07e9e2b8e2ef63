import { pipeline } from 'node:stream/promises';
import { Readable, Transform, type Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { Db } from '../../db/knex.js';
import { tarEnd, tarEntry } from '../../lib/tar.js';
import { recordAudit, auditPage, type Actor } from '../access/audit.js';
import { accountSummary } from '../access/accounts.js';
import { exportMailingsPage } from '../mailings/listing.js';
import { proofPdf } from '../mailings/proofs.js';
import { findOwnPdf } from '../mailings/own-pdf-store.js';
import type { ProofKind } from '../mailings/states.js';
import { exportWebhookEndpoints } from '../webhooks/endpoints.js';
import { exportDeliveriesPage } from '../webhooks/deliveries.js';
import { exportTopUpsPage, ledgerPage } from '../billing/topups.js';
import { findBillingProfile } from '../billing/profiles.js';
import { listTeam } from '../developers/team.js';
import { accountServiceRequests } from '../requests/service-requests.js';
import { exportSenderIdentities } from '../developers/sender-identity.js';

/**
 * The export of everything held for an account (issue 53 item 2), as one gzipped tar archive
 * written as it is read: mailings a page at a time, each PDF read and written alone, so memory stays
 * bounded whatever the account holds. Layout (docs/developer-space.md, "Export"):
 *
 *   account.json, billing-profile.json, team.json, sender-identity.json (each provider's)
 *   mailings/<id>/mailing.json    the stored mailing (letter, sender, recipient, options), its events, its files
 *   mailings/<id>/letter.pdf      a customer's own PDF, byte for byte
 *   mailings/<id>/proof-<kind>.pdf
 *   webhooks/endpoints.json       every endpoint (deleted ones too), never a secret
 *   webhooks/deliveries-NNNN.json the delivery history kept (30 days), with each event's body
 *   billing/topups-NNNN.json      top-ups and their invoices
 *   billing/ledger-NNNN.json      every ledger entry
 *   audit/audit-NNNN.json, requests/requests-NNNN.json
 *   manifest.json                 last: the format, the account, when, and the counts
 */

export const EXPORT_FORMAT = 'svc-postal-account-export';
/** Rows per page read, and per JSON file of the paged kinds. */
const PAGE = 200;

export interface ExportCounts {
  mailings: number;
  mailingEvents: number;
  ownPdfs: number;
  proofs: number;
  webhookEndpoints: number;
  webhookDeliveries: number;
  topUps: number;
  invoices: number;
  ledgerEntries: number;
  teamMembers: number;
  auditEntries: number;
  serviceRequests: number;
  billingProfile: number;
  senderIdentities: number;
}

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value, null, 2) + '\n', 'utf8');
const pageName = (n: number): string => String(n).padStart(4, '0');

/** The archive's tar stream (uncompressed); `counts` is filled as it goes and complete at its end. */
async function* archiveEntries(db: Db, secretKey: Buffer, accountId: string, counts: ExportCounts, now: Date): AsyncGenerator<Buffer> {
  const account = await accountSummary(db, accountId);
  yield* tarEntry('account.json', json(account), now);

  const profile = await findBillingProfile(db, accountId);
  counts.billingProfile = profile ? 1 : 0;
  yield* tarEntry('billing-profile.json', json(profile ?? null), now);

  const team = await listTeam(db, accountId);
  counts.teamMembers = team.members.length;
  yield* tarEntry('team.json', json(team), now);

  const senders = await exportSenderIdentities(db, accountId);
  counts.senderIdentities = senders.length;
  yield* tarEntry('sender-identity.json', json(senders), now);

  // Mailings: a page of rows, then each one's files, read one at a time.
  for (let after: string | undefined; ;) {
    const mailings = await exportMailingsPage(db, accountId, after, PAGE);
    for (const mailing of mailings) {
      const id = mailing.row.id as string;
      const dir = `mailings/${id}`;
      const files: { kind: string; file: string; sha256?: string; pages?: number }[] = [];
      const own = await findOwnPdf(db, id, accountId);
      if (own) {
        files.push({ kind: 'own_pdf', file: `${dir}/letter.pdf`, sha256: own.sha256, pages: own.pages });
        yield* tarEntry(`${dir}/letter.pdf`, own.pdf, now);
        counts.ownPdfs += 1;
      }
      for (const kind of mailing.proofKinds) {
        const pdf = await proofPdf(db, id, kind as ProofKind, accountId);
        if (!pdf) continue;
        files.push({ kind: `proof_${kind}`, file: `${dir}/proof-${kind}.pdf` });
        yield* tarEntry(`${dir}/proof-${kind}.pdf`, pdf, now);
        counts.proofs += 1;
      }
      yield* tarEntry(`${dir}/mailing.json`, json({ mailing: mailing.row, events: mailing.events, files }), now);
      counts.mailings += 1;
      counts.mailingEvents += mailing.events.length;
    }
    if (mailings.length < PAGE) break;
    after = mailings[mailings.length - 1]!.row.id as string;
  }

  const endpoints = await exportWebhookEndpoints(db, accountId);
  counts.webhookEndpoints = endpoints.length;
  yield* tarEntry('webhooks/endpoints.json', json(endpoints), now);

  for (let n = 1, after: string | undefined; ; n++) {
    const deliveries = await exportDeliveriesPage(db, accountId, after, PAGE);
    if (deliveries.length === 0) break;
    counts.webhookDeliveries += deliveries.length;
    yield* tarEntry(`webhooks/deliveries-${pageName(n)}.json`, json(deliveries), now);
    if (deliveries.length < PAGE) break;
    after = deliveries[deliveries.length - 1]!.id;
  }

  for (let n = 1, after: string | undefined; ; n++) {
    const topUps = await exportTopUpsPage(db, accountId, after, PAGE);
    if (topUps.length === 0) break;
    counts.topUps += topUps.length;
    counts.invoices += topUps.filter((t) => t.invoiceId !== null).length;
    yield* tarEntry(`billing/topups-${pageName(n)}.json`, json(topUps), now);
    if (topUps.length < PAGE) break;
    after = topUps[topUps.length - 1]!.id;
  }

  for (let n = 1, cursor: string | undefined; ; n++) {
    const { lines, nextCursor } = await ledgerPage(db, secretKey, accountId, { limit: PAGE, cursor });
    if (lines.length === 0) break;
    counts.ledgerEntries += lines.length;
    yield* tarEntry(`billing/ledger-${pageName(n)}.json`, json(lines), now);
    if (!nextCursor) break;
    cursor = nextCursor;
  }

  for (let n = 1, cursor: string | undefined; ; n++) {
    const { entries, nextCursor } = await auditPage(db, secretKey, accountId, { limit: PAGE, cursor });
    if (entries.length === 0) break;
    counts.auditEntries += entries.length;
    yield* tarEntry(`audit/audit-${pageName(n)}.json`, json(entries), now);
    if (!nextCursor) break;
    cursor = nextCursor;
  }

  for (let n = 1, cursor: string | undefined; ; n++) {
    const { data, nextCursor } = await accountServiceRequests(db, secretKey, accountId, { limit: PAGE, cursor });
    if (data.length === 0) break;
    counts.serviceRequests += data.length;
    yield* tarEntry(`requests/requests-${pageName(n)}.json`, json(data), now);
    if (!nextCursor) break;
    cursor = nextCursor;
  }

  yield* tarEntry('manifest.json', json({ format: EXPORT_FORMAT, version: 1, accountId, createdAt: now.toISOString(), counts }), now);
  yield tarEnd();
}

const emptyCounts = (): ExportCounts => ({
  mailings: 0,
  mailingEvents: 0,
  ownPdfs: 0,
  proofs: 0,
  webhookEndpoints: 0,
  webhookDeliveries: 0,
  topUps: 0,
  invoices: 0,
  ledgerEntries: 0,
  teamMembers: 0,
  auditEntries: 0,
  serviceRequests: 0,
  billingProfile: 0,
  senderIdentities: 0,
});

/** The archive's file name, e.g. `svc-postal-export-<account>-2026-12-01.tar.gz`. */
export const exportFileName = (accountId: string, now = new Date()): string => `svc-postal-export-${accountId}-${now.toISOString().slice(0, 10)}.tar.gz`;

/**
 * Writes the account's archive (tar.gz) to `out` and records the export in the audit log (who,
 * when); answers the bytes written and the counts of the manifest. The audit entry is written
 * first: an export that fails halfway was still asked.
 */
export async function exportAccount(
  db: Db,
  secretKey: Buffer,
  accountId: string,
  actor: Actor,
  out: Writable,
): Promise<{ bytes: number; counts: ExportCounts }> {
  await recordAudit(db, actor, { accountId, action: 'account.exported', target: { type: 'account', id: accountId } });
  const counts = emptyCounts();
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(Readable.from(archiveEntries(db, secretKey, accountId, counts, new Date())), createGzip(), count, out);
  return { bytes, counts };
}
