import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../../lib/paths.js';
import type { Session } from '../../domain/developers/sessions.js';
import type { BatchReport } from '../../domain/batches/create.js';
import { count, euros, percent, when } from '../../web/pages/format.js';
import { batchPage, type BatchForm } from '../../web/pages/batches.js';
import { billingPage } from '../../web/pages/billing.js';
import { layout, markCurrentPage, menuEntryOf } from '../../web/pages/layout.js';
import { html } from '../../web/html.js';

/**
 * Issue 56: every amount, count and date of the developer space's pages in French formats, from
 * web/pages/format.ts alone; and the menu marking the current page.
 */
const NNBSP = '\u202f';
const session: Session = {
  id: 's',
  csrfToken: 'csrf',
  user: { id: 'u', accountId: 'a', email: 'dev@example.fr', role: 'owner' },
  flash: null,
  pendingUserId: undefined,
};
/** The text of a page as a reader sees it: no tags, no attributes (a data-amount-cents may hold raw cents). */
const visibleText = (page: string): string =>
  page
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    // The templates' line breaks and indents (not the formats' no-break spaces) as one space.
    .replace(/[ \t\n]+/g, ' ');

describe('developer space: French formats (web/pages/format.ts)', () => {
  it('formats amounts, counts, rates and dates as fr-FR does', () => {
    expect(euros(123456)).to.equal(`1${NNBSP}234,56\u00a0€`);
    expect(euros(123456)).to.equal(new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(1234.56));
    expect(euros(-500)).to.equal('-5,00\u00a0€');
    expect(count(123456)).to.equal(`123${NNBSP}456`);
    expect(percent(0.2)).to.equal('20 %');
    expect(percent(0.055)).to.equal('5,5 %');
    expect(when(new Date('2026-12-02T13:40:00Z'))).to.equal('02/12/2026 14:40');
  });

  it('no page or route of the developer space formats a number or a date another way', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts')) files.push(path);
      }
    };
    walk(join(projectRoot, 'web'));
    const offenders = files
      .filter((file) => !file.endsWith(join('web', 'pages', 'format.ts')))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(projectRoot, file)}:${i + 1}` }))
          .filter(({ line }) => /\.toFixed\(|\.toLocaleString\(|new Intl\.|\.toLocaleDateString\(|\.toISOString\(\)\.slice/.test(line))
          .map(({ at }) => at),
      );
    expect(offenders).to.deep.equal([]);
  });

  const form: BatchForm = {
    env: 'live',
    mode: 'simple',
    senderName: 'A',
    senderLine1: '1 rue B',
    senderPostalCode: '75001',
    senderCity: 'Paris',
    title: 'T',
    body: 'B',
    csv: 'name;line1;postalCode;city',
    channel: 'paper',
    recipientKind: 'professional',
    fallback: 'none',
  };

  it('the batch page: the report’s prices, total and counts, and the check’s progress', () => {
    const report: BatchReport = {
      valid: true,
      rowCount: 12345,
      invalidCount: 0,
      amountCents: 123456,
      rows: [{ index: 1233, reference: 'R', ok: true, amountCents: 98765, warnings: [], error: null }],
    };
    const page = visibleText(batchPage(session, { form, report, batchKey: 'k' }));
    expect(page).to.include(`12${NNBSP}345 lignes, 0 refusées`);
    expect(page).to.include(`1${NNBSP}234,56\u00a0€ HT`);
    expect(page).to.include(`987,65\u00a0€ HT`);
    expect(page).to.include(`Envoyer les 12${NNBSP}345 courriers`);
    expect(page).to.not.match(/1234[.,]56|\b1234\b|12345\b|98765|987\.65/);

    const running = visibleText(batchPage(session, { form, check: { id: 'c', state: 'running', rowCount: 5000, checkedCount: 1200 } }));
    expect(running).to.include(`1${NNBSP}200 / 5${NNBSP}000 lignes vérifiées`);
    expect(running).to.not.match(/\b5000\b|\b1200\b/);
  });

  it('the balance page: the balance, the ledger, the top-ups and the limits', () => {
    const at = new Date('2026-12-02T10:00:00Z');
    const page = visibleText(
      billingPage(session, {
        balance: { balanceCents: 123456, freeQuota: { used: 1500, calls: 10000, period: '2026-12' } },
        presets: [{ amountCents: 500000, vatRate: 0.2, vatCents: 100000, totalCents: 600000 }],
        limits: { minCents: 1000, maxCents: 200000, stepCents: 500 },
        vatRate: 0.2,
        topUps: [
          {
            id: 't',
            accountId: 'a',
            amountCents: 250000,
            vatCents: 50000,
            totalCents: 300000,
            status: 'paid',
            sessionId: null,
            invoiceId: null,
            invoiceNumber: null,
            invoiceUrl: null,
            invoicePdfUrl: null,
            createdAt: at,
            settledAt: at,
          },
        ],
        ledger: {
          lines: [{ id: 1, kind: 'debit', amountCents: -123456, balanceAfterCents: 654321, unit: null, reference: 'x', createdAt: at }],
          nextCursor: null,
          first: true,
        },
        enabled: true,
        testPayments: false,
        hasProfile: true,
      }),
    );
    for (const amount of ['1 234,56', '-1 234,56', '6 543,21', '5 000,00', '1 000,00', '6 000,00', '2 500,00', '3 000,00', '2 000,00', '10,00', '5,00'])
      expect(page).to.include(`${amount.replace(' ', NNBSP)}\u00a0€`);
    expect(page).to.include(`1${NNBSP}500 / 10${NNBSP}000 appels`);
    expect(page).to.not.match(/1234[.,]56|123456|654321|\b10000\b|\b1500\b/);
  });
});

describe('developer space: the menu marks the current page', () => {
  it('finds the entry of a path: the longest on a segment’s boundary, the home page alone', () => {
    expect(menuEntryOf('/dashboard')).to.deep.equal({ path: '', group: null });
    expect(menuEntryOf('/dashboard/envois')).to.deep.equal({ path: '/envois', group: 'Suivre' });
    expect(menuEntryOf('/dashboard/envois/3f1c')).to.deep.equal({ path: '/envois', group: 'Suivre' });
    expect(menuEntryOf('/dashboard/envois/lots/verifications/3f1c')).to.deep.equal({ path: '/envois/lots', group: 'Envoyer' });
    expect(menuEntryOf('/dashboard/webhooks/livraisons')).to.deep.equal({ path: '/webhooks', group: 'Intégrer' });
    expect(menuEntryOf('/dashboard/connexion')).to.equal(undefined);
    expect(menuEntryOf('/dashboard/solde-x')).to.equal(undefined);
  });

  it('marks one link aria-current="page" and its group', () => {
    const page = markCurrentPage(layout('Clés', session, html`<p>x</p>`), '/dashboard/cles');
    expect(page.match(/aria-current="page"/g)).to.have.length(1);
    expect(page).to.match(/<a href="\/dashboard\/cles" data-menu-path="\/cles" aria-current="page">/);
    expect(page.match(/data-current/g)).to.have.length(1);
    expect(page).to.include('data-menu-group="Intégrer" data-current');
    const home = markCurrentPage(layout('Accueil', session, html``), '/dashboard');
    expect(home).to.match(/class="nav-home" href="\/dashboard" data-menu-path="" aria-current="page"/);
    expect(home).to.not.include('data-current');
  });
});
