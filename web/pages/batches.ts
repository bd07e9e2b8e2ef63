import { html, type Html } from '../html.js';
import type { Session } from '../../domain/developers/sessions.js';
import type { BatchReport } from '../../domain/batches/create.js';
import { MAX_BATCH_ROWS } from '../../api/schemas/batches.js';
import { MODES, MODE_LABELS } from '../../domain/mailings/states.js';
import { BASE, csrfField, layout, message, type Message } from './layout.js';
import { count, euros } from './format.js';

/** What the batch form holds, posted again with the confirmation (nothing is kept between the two pages). */
export interface BatchForm {
  env: 'test' | 'live';
  mode: string;
  senderName: string;
  senderLine1: string;
  senderPostalCode: string;
  senderCity: string;
  title: string;
  body: string;
  csv: string;
  /** paper, or electronic (issue 54): then every row's recipientEmail column, and for consumers consentDate and consentMeans. */
  channel: string;
  recipientKind: string;
  fallback: string;
}

export const BATCH_FORM_FIELDS = [
  'env',
  'mode',
  'senderName',
  'senderLine1',
  'senderPostalCode',
  'senderCity',
  'title',
  'body',
  'csv',
  'channel',
  'recipientKind',
  'fallback',
] as const;

function formFields(form: BatchForm): Html {
  const option = (value: string, text: string, selected: string): Html =>
    html`<option value="${value}" ${value === selected ? html`selected` : ''}>${text}</option>`;
  const text = (name: keyof BatchForm, label: string): Html =>
    html`<label for="${name}">${label}</label><input id="${name}" name="${name}" type="text" value="${form[name]}" required />`;
  return html`<label for="env">Environnement</label>
    <select id="env" name="env">
      ${option('test', 'test (sandbox, rien n’est envoyé ni facturé)', form.env)} ${option('live', 'production (débité en une fois)', form.env)}
    </select>
    <label for="mode">Mode d’envoi</label>
    <select id="mode" name="mode">
      ${MODES.map((m) => option(m, MODE_LABELS[m], form.mode))}
    </select>
    <label for="channel">Canal</label>
    <select id="channel" name="channel">
      ${option('paper', 'courrier postal', form.channel)}
      ${option('electronic', 'lettre recommandée électronique qualifiée (recommandé ou avec AR ; colonne recipientEmail)', form.channel)}
    </select>
    <label for="recipientKind">Destinataires (canal électronique)</label>
    <select id="recipientKind" name="recipientKind">
      ${option('professional', 'des professionnels', form.recipientKind)}
      ${option('consumer', 'des particuliers (colonnes consentDate et consentMeans : leur consentement préalable)', form.recipientKind)}
    </select>
    <label for="fallback">Si une lettre électronique est refusée, non réclamée ou n’arrive pas</label>
    <select id="fallback" name="fallback">
      ${option('none', 'l’envoi s’arrête là', form.fallback)}
      ${option('paper', 'l’envoyer par courrier recommandé (prix réservé à la création, remboursé s’il ne sert pas)', form.fallback)}
    </select>
    <fieldset>
      <legend>Expéditeur</legend>
      ${text('senderName', 'Nom')} ${text('senderLine1', 'Adresse')} ${text('senderPostalCode', 'Code postal')} ${text('senderCity', 'Ville')}
    </fieldset>
    <fieldset>
      <legend>Lettre (les {{variables}} prennent les colonnes du fichier)</legend>
      ${text('title', 'Titre')}
      <label for="body">Texte</label>
      <textarea id="body" name="body" rows="8" required>${form.body}</textarea>
    </fieldset>
    <label for="csv-file">Fichier CSV des destinataires</label>
    <input id="csv-file" type="file" accept=".csv,text/csv" data-csv-into="csv" />
    <label for="csv">Contenu du fichier (ou collez-le ici)</label>
    <textarea id="csv" name="csv" rows="8" required>${form.csv}</textarea>`;
}

function reportTable(report: BatchReport): Html {
  return html`<table id="batch-report">
    <thead>
      <tr>
        <th>Ligne</th>
        <th>Référence</th>
        <th>Résultat</th>
        <th>Prix</th>
      </tr>
    </thead>
    <tbody>
      ${report.rows.map(
        (row) =>
          html`<tr data-row="${row.index + 1}" data-ok="${row.ok ? 'true' : 'false'}">
            <td>${count(row.index + 1)}</td>
            <td>${row.reference ?? '—'}</td>
            <td>
              ${row.ok ? (row.warnings.length ? row.warnings.map((w) => html`${w.message}<br />`) : 'Prêt') : html`<strong>${row.error!.code}</strong> : ${row.error!.message}`}
            </td>
            <td>${row.amountCents === null ? '—' : `${euros(row.amountCents)} HT`}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** A CSV file's check as its page shows it (domain/developers/batch-checks.ts). */
export interface BatchCheckView {
  id: string;
  state: 'running' | 'done' | 'failed';
  rowCount: number;
  checkedCount: number;
}

export const checkUrl = (id: string): string => `${BASE}/envois/lots/verifications/${id}`;

/** A check still running: its rows checked so far, followed in place by the page's script (or reloaded, without script). */
function checkProgress(check: BatchCheckView): Html {
  const progress = `${count(check.checkedCount)} / ${count(check.rowCount)}`;
  return html`<section id="batch-check" data-live data-follow="running" data-follow-every="1500" data-batch-check="running" aria-live="polite">
    <h2>Vérification</h2>
    <p>
      <label for="batch-check-bar">Lignes du fichier vérifiées</label>
      <progress id="batch-check-bar" max="${check.rowCount}" value="${check.checkedCount}">${progress}</progress>
      <span id="batch-check-count">${progress} lignes vérifiées</span>
    </p>
    <p class="muted">
      Chaque ligne passe les vérifications d’un envoi seul. La vérification continue si vous rechargez ou quittez cette page :
      <a href="${checkUrl(check.id)}">cette adresse</a> montre son avancement, puis son résultat, pendant 24 heures.
    </p>
  </section>`;
}

function checkResult(form: BatchForm, report: BatchReport, hidden: Html[], session: Session, batchKey: string | undefined, check?: BatchCheckView): Html {
  return html`<section id="batch-check" data-live data-follow="done" data-batch-check="done">
    <h2>Vérification</h2>
    <p id="batch-total">
      ${count(report.rowCount)} lignes, ${count(report.invalidCount)} refusées. Total : ${euros(report.amountCents)}
      HT${form.env === 'test' ? ' (test : non facturé)' : ''}.
    </p>
    ${reportTable(report)}
    ${
      report.valid
        ? html`<form method="post" action="${BASE}/envois/lots/envoyer">
            ${csrfField(session)}${hidden}<input type="hidden" name="batchKey" value="${batchKey ?? check?.id ?? ''}" /><button
              type="submit"
              id="confirm-batch"
            >
              Envoyer les ${count(report.rowCount)} courriers
            </button>
          </form>`
        : html`<p class="error">Corrigez les lignes refusées : rien n’est envoyé tant qu’une ligne est refusée.</p>`
    }
  </section>`;
}

/**
 * Mail merge from a CSV file: the form, then the check (the dry run) while it runs, its report row
 * by row and the total, and only when every row is valid, the button that creates (and pays for)
 * the batch. `check`: the page of a recorded check (/envois/lots/verifications/{id}); a running
 * one reloads itself without script.
 */
export function batchPage(
  session: Session,
  input: { form: BatchForm; report?: BatchReport; batchKey?: string; m?: Message; check?: BatchCheckView; failure?: string },
): string {
  const { form, report, check } = input;
  const hidden = BATCH_FORM_FIELDS.map((name) => html`<input type="hidden" name="${name}" value="${form[name]}" />`);
  const running = check?.state === 'running';
  return layout(
    'Envoi en nombre',
    session,
    html`${message(input.m)}
      <p>
        Une lettre, un destinataire par ligne du fichier CSV. Première ligne : les noms des colonnes : <code>name</code>, <code>line1</code> à
        <code>line5</code>, <code>postalCode</code>, <code>city</code> (ou <code>siret</code>), <code>reference</code> (facultative) ; toute autre colonne
        remplit la <code>{{variable}}</code> du même nom. Séparateur virgule ou point-virgule. Jusqu’à ${count(MAX_BATCH_ROWS)} lignes (2 Mo) depuis cette page,
        comme <code>POST /v1/mailing-batches</code>.
      </p>
      ${
        running
          ? checkProgress(check)
          : check?.state === 'failed'
            ? html`<section id="batch-check" data-live data-follow="failed" data-batch-check="failed">
                <h2>Vérification</h2>
                <p class="error" role="alert">${input.failure ?? 'La vérification n’a pas pu aboutir. Vérifiez de nouveau le fichier.'}</p>
              </section>`
            : report
              ? checkResult(form, report, hidden, session, input.batchKey, check)
              : ''
      }
      <form method="post" action="${BASE}/envois/lots/verifier" id="batch-form">
        ${csrfField(session)} ${formFields(form)}
        <p><button type="submit" id="check-batch">Vérifier (rien n’est envoyé)</button></p>
      </form>`,
    running ? { url: checkUrl(check.id), seconds: 3, withoutScript: true } : undefined,
  );
}
