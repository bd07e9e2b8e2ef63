import type { Mailing, MailingDocument } from '../../domain/mailings/mailing.js';
import type { ProofKind, MailingStatus } from '../../domain/mailings/states.js';

import { escapeHtml as escape } from '../../lib/html.js';
import { FONT_STACKS } from './fonts.js';
// Made once: building a DateTimeFormat costs more than the rest of a proof's HTML together.
const PARIS_DATE_TIME = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });
const when = (iso: string): string => PARIS_DATE_TIME.format(new Date(iso));

/** A one-page proof: the mailing, its tracking number and the dated history up to this proof. */
export function proofHtml(mailing: Mailing, kind: ProofKind, title: string, labels: Record<MailingStatus, string>, document?: MailingDocument): string {
  const rows = mailing.events.map((e) => `<tr><td>${escape(when(e.at))}</td><td>${escape(labels[e.status])}</td></tr>`).join('');
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>@page { size: A4; margin: 20mm; } body { font-family: ${FONT_STACKS.sans}; font-size: 10.5pt; }
h1 { font-size: 16pt; } table { border-collapse: collapse; width: 100%; } td, th { border: 1px solid #999; padding: 2mm 3mm; text-align: left; }</style></head>
<body><h1>${escape(title)}</h1>
<p>Envoi <b>${escape(mailing.id)}</b> — ${escape(mailing.modeLabel)}<br>Numéro de suivi : <b>${escape(mailing.trackingNumber)}</b><br>Objet : ${escape(mailing.title)}</p>
${
  document?.kind === 'pdf'
    ? `<p>Document posté : PDF fourni, ${document.pages} page(s), ${document.sheets} feuille(s) sous pli.<br>Empreinte SHA-256 du PDF : <code class="sha256">${escape(document.sha256 ?? '')}</code></p>`
    : ''
}
<p>Destinataire :<br>${mailing.recipient.map(escape).join('<br>')}</p>
<table><tr><th>Date (heure de Paris)</th><th>Étape</th></tr>${rows}</table>
<p>Type de preuve : ${escape(kind)}. ${mailing.test ? 'Envoi de test (bac à sable) : aucun courrier réel.' : ''}</p></body></html>`;
}
