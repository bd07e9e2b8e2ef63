import { badge, type BadgeTone } from './badges.js';
import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import type { BalanceView, LedgerLine, TopUpPrice, TopUpRecord } from '../../domain/billing/topups.js';
import { priceTable } from '../../domain/billing/prices.js';
import { BASE, csrfField, layout, message, when, type Message } from './layout.js';
import { count, euros, percent } from './format.js';

const unitLabels = new Map<string, string>(priceTable.units.map((u) => [u.unit, u.label]));

/** What a ledger row paid for, or where its credit came from. */
function ledgerLabel(line: LedgerLine): string {
  const unit = line.unit ? (unitLabels.get(line.unit) ?? line.unit) : '';
  switch (line.kind) {
    case 'topup':
      return line.reference?.startsWith('topup:') ? 'Recharge par carte (Stripe)' : 'Recharge (opérateur)';
    case 'refund':
      return `Remboursement · ${unit}`;
    case 'closing_refund':
      return 'Clôture du compte · crédit restant à rembourser';
    default:
      return unit;
  }
}

const STATUS_TEXT: Record<TopUpRecord['status'], string> = { pending: 'en attente', paid: 'payée', failed: 'échouée', expired: 'expirée' };
const TOPUP_TONES: Record<TopUpRecord['status'], BadgeTone> = { pending: 'progress', paid: 'success', failed: 'danger', expired: 'neutral' };

export interface BillingPageInput {
  balance: BalanceView;
  presets: TopUpPrice[];
  limits: { minCents: number; maxCents: number; stepCents: number };
  vatRate: number;
  topUps: TopUpRecord[];
  ledger: { lines: LedgerLine[]; nextCursor: string | null; first: boolean };
  enabled: boolean;
  testPayments: boolean;
  /** Without a billing profile the invoices carry the email only: the page invites to fill it. */
  hasProfile: boolean;
  /** Back from paying while the credit has not landed: the page asks again by itself. */
  refresh?: { url: string; seconds: number };
  m?: Message;
}

function topUpForm(session: Session, input: BillingPageInput): Html {
  if (!input.enabled) return html`<p class="error" role="alert">Le paiement en ligne n’est pas configuré sur ce serveur (STRIPE_SECRET_KEY).</p>`;
  const { minCents, maxCents, stepCents } = input.limits;
  return html`<form method="post" action="${BASE}/solde/recharger" id="topup-form">
    ${csrfField(session)}
    <fieldset>
      <legend>Montant du crédit (hors taxes), TVA française ${percent(input.vatRate)} en plus</legend>
      ${input.presets.map(
        (p, i) =>
          html`<label
            ><input type="radio" name="amountCents" value="${p.amountCents}" ${i === 1 ? html`checked` : ''} /> ${euros(p.amountCents)} HT +
            ${euros(p.vatCents)} TVA = <strong>${euros(p.totalCents)} TTC</strong></label
          >`,
      )}
      <label
        ><input type="radio" name="amountCents" value="other" /> Autre montant HT, en euros (de ${euros(minCents)} à ${euros(maxCents)}, par pas de
        ${euros(stepCents)}) :</label
      >
      <input
        type="number"
        name="otherEuros"
        aria-label="Autre montant HT, en euros"
        min="${minCents / 100}"
        max="${maxCents / 100}"
        step="${stepCents / 100}"
        inputmode="numeric"
      />
    </fieldset>
    <p>
      <button type="submit">Payer par carte ou portefeuille mobile</button>
      ${input.testPayments ? html`<small>(serveur local : une page de paiement de test remplace Stripe Checkout)</small>` : ''}
    </p>
  </form>`;
}

function topUpTable(topUps: TopUpRecord[]): Html {
  if (topUps.length === 0) return html`<p>Aucune recharge pour l’instant.</p>`;
  return html`<table id="invoices">
    <thead>
      <tr>
        <th>Date</th>
        <th>Crédit HT</th>
        <th>TVA</th>
        <th>Payé TTC</th>
        <th>État</th>
        <th>Facture</th>
      </tr>
    </thead>
    <tbody>
      ${topUps.map(
        (t) =>
          html`<tr data-topup-id="${t.id}" data-status="${t.status}">
            <td>${when(t.createdAt)}</td>
            <td>${euros(t.amountCents)}</td>
            <td>${euros(t.vatCents)}</td>
            <td>${euros(t.totalCents)}</td>
            <td>${badge(TOPUP_TONES[t.status], STATUS_TEXT[t.status])}</td>
            <td>
              ${t.invoiceUrl ? html`<a class="invoice-link" href="${t.invoiceUrl}">${t.invoiceNumber ?? 'Voir la facture'}</a>` : ''}
              ${t.invoicePdfUrl ? html` · <a class="invoice-pdf" href="${t.invoicePdfUrl}">PDF</a>` : ''}
              ${!t.invoiceUrl && t.status === 'paid' ? 'en préparation' : ''}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function ledgerTable(ledger: BillingPageInput['ledger']): Html {
  if (ledger.lines.length === 0) return html`<p>Aucun mouvement.</p>`;
  return html`<table id="ledger">
      <thead>
        <tr>
          <th>Date</th>
          <th>Opération</th>
          <th>Référence</th>
          <th>Montant HT</th>
          <th>Solde après</th>
        </tr>
      </thead>
      <tbody>
        ${ledger.lines.map(
          (l) =>
            html`<tr data-kind="${l.kind}" data-amount-cents="${l.amountCents}">
              <td>${when(l.createdAt)}</td>
              <td>${ledgerLabel(l)}</td>
              <td><code>${l.reference ?? ''}</code></td>
              <td>${l.amountCents > 0 ? '+' : ''}${euros(l.amountCents)}</td>
              <td>${euros(l.balanceAfterCents)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <p>
      ${ledger.first ? '' : html`<a href="${BASE}/solde#releve">Mouvements les plus récents</a> `}
      ${ledger.nextCursor ? html`<a id="ledger-next" href="${BASE}/solde?apres=${encodeURIComponent(ledger.nextCursor)}#releve">Mouvements plus anciens →</a>` : ''}
    </p>`;
}

export function billingPage(session: Session, input: BillingPageInput): string {
  const { balance } = input;
  return layout(
    'Solde et recharges',
    session,
    html`${message(input.m)}
      <p>Solde : <strong id="balance" data-balance-cents="${balance.balanceCents}">${euros(balance.balanceCents)}</strong> HT</p>
      <p id="free-quota" data-used="${balance.freeQuota.used}">
        Quota gratuit du mois (${balance.freeQuota.period}) : ${count(balance.freeQuota.used)} / ${count(balance.freeQuota.calls)} appels de données et de
        calcul utilisés.
      </p>
      <h2>Recharger</h2>
      ${
        input.hasProfile
          ? html`<p id="billing-profile-link">Vos factures sont établies selon votre <a href="${BASE}/facturation">profil de facturation</a>.</p>`
          : html`<p class="notice" id="billing-profile-invite">
              Vos factures ne portent pour l’instant que votre adresse e-mail :
              <a href="${BASE}/facturation">renseignez votre profil de facturation</a> (raison sociale, adresse, SIRET, numéro de TVA) pour qu’elles soient
              établies au nom de votre entreprise.
            </p>`
      }
      ${topUpForm(session, input)}
      <h2>Recharges et factures</h2>
      ${topUpTable(input.topUps)}
      <h2 id="releve">Relevé</h2>
      ${ledgerTable(input.ledger)}`,
    input.refresh,
  );
}

/** Local runs and tests only: stands in for Stripe Checkout, which stripe-mock does not host. */
export function testPaymentPage(session: Session, topUp: TopUpRecord, vatRate: number): string {
  return layout(
    'Paiement de test',
    session,
    html`<p class="secret" role="note">
        <strong>Page de paiement de TEST</strong> (serveur local, sans clé Stripe) : aucun argent ne circule. Les boutons envoient à
        <code>/stripe/webhook</code> l’événement signé que Stripe enverrait ; la suite est celle de la production.
      </p>
      <table>
        <tbody>
          <tr>
            <th>Crédit HT</th>
            <td>${euros(topUp.amountCents)}</td>
          </tr>
          <tr>
            <th>TVA ${percent(vatRate)}</th>
            <td>${euros(topUp.vatCents)}</td>
          </tr>
          <tr>
            <th>Total TTC</th>
            <td id="total">${euros(topUp.totalCents)}</td>
          </tr>
          <tr>
            <th>Session Checkout</th>
            <td><code>${topUp.sessionId}</code></td>
          </tr>
        </tbody>
      </table>
      <form method="post" action="${BASE}/paiement-test/${topUp.sessionId}">
        ${csrfField(session)}
        <p>
          <button type="submit" name="outcome" value="paid" id="pay">Payer (test)</button>
          <button type="submit" name="outcome" value="failed" id="fail">Refuser le paiement (test)</button>
        </p>
      </form>`,
  );
}

/** Local runs and tests only: the invoice of a top-up when Stripe's is stripe-mock's (it has no pages). */
export function testInvoicePage(session: Session, topUp: TopUpRecord, vatRate: number): string {
  return layout(
    'Facture de test',
    session,
    html`<p class="secret" role="note">Facture de TEST (stripe-mock n’héberge pas de factures) : sans valeur.</p>
      <p>Facture <code>${topUp.invoiceId ?? ''}</code> du ${when(topUp.settledAt)} · recharge <code>${topUp.id}</code></p>
      <table>
        <tbody>
          <tr>
            <th>Crédit prépayé HT</th>
            <td>${euros(topUp.amountCents)}</td>
          </tr>
          <tr>
            <th>TVA ${percent(vatRate)}</th>
            <td>${euros(topUp.vatCents)}</td>
          </tr>
          <tr>
            <th>Total TTC payé</th>
            <td>${euros(topUp.totalCents)}</td>
          </tr>
        </tbody>
      </table>`,
  );
}

/** A one-page PDF of the same test invoice (a few lines of PDF by hand: nothing to render). */
export function testInvoicePdf(topUp: TopUpRecord, vatRate: number): Buffer {
  const ascii = (text: string): string => text.replace(/[^\x20-\x7e]/g, ' ').replace(/[()\\]/g, '');
  // The same French amounts, the euro sign spelt out (the PDF's font is plain ASCII).
  const amount = (cents: number): string => euros(cents).replace('€', 'EUR');
  const lines = [
    'FACTURE DE TEST (stripe-mock) - sans valeur',
    `Facture ${topUp.invoiceId ?? ''} - recharge ${topUp.id}`,
    `Credit prepaye HT: ${amount(topUp.amountCents)}`,
    `TVA ${percent(vatRate)}: ${amount(topUp.vatCents)}`,
    `Total TTC: ${amount(topUp.totalCents)}`,
  ].map(ascii);
  const stream = `BT /F1 12 Tf 56 780 Td 16 TL ${lines.map((l) => `(${l}) '`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
