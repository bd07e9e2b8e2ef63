import { html, type Html } from '../html.js';
import { MODES, MODE_LABELS } from '../../domain/mailings/states.js';
import type { MonthModeVolume } from '../../domain/mailings/listing.js';
import type { EndpointOutcomes } from '../../domain/webhooks/deliveries.js';
import { DELIVERY_RETENTION_DAYS } from '../../domain/webhooks/deliveries.js';
import { barChart, stepChart } from './charts.js';
import { count, decimalNumber, euros, month } from './format.js';
import { BASE } from './layout.js';

/** What the home page's overview shows; each part null when the user's role does not open its pages. */
export interface HomeOverview {
  month: MonthModeVolume[] | null;
  balance: { at: Date; balanceCents: number }[] | null;
  currentBalanceCents: number | null;
  endpoints: EndpointOutcomes[] | null;
}

const monthName = (): string => month(new Date());

function monthCard(month: MonthModeVolume[]): Html {
  const of = (mode: string, test: boolean): MonthModeVolume | undefined => month.find((m) => m.mode === mode && m.test === test);
  const live = MODES.map((mode) => ({ mode, count: of(mode, false)?.count ?? 0, cents: of(mode, false)?.amountCents ?? 0 }));
  const tests = month.filter((m) => m.test).reduce((sum, m) => sum + m.count, 0);
  const liveCount = live.reduce((sum, m) => sum + m.count, 0);
  return html`<section class="card" aria-labelledby="month-title" id="month-volume">
    <h2 id="month-title">Envois de ${monthName()}</h2>
    ${
      liveCount
        ? html`${barChart(
              'month-chart',
              'Envois de production du mois par mode',
              live.map((m) => ({ label: MODE_LABELS[m.mode], value: m.count, text: `${count(m.count)} · ${euros(m.cents)} HT` })),
            )}
            <p id="month-spend">Total : ${count(liveCount)} envoi(s), ${euros(live.reduce((sum, m) => sum + m.cents, 0))} HT.</p>`
        : html`<p class="empty" id="month-empty">
            Aucun envoi de production ce mois-ci. <a href="${BASE}/envois/nouveau">Envoyez une lettre</a> depuis cet espace, ou par l’API avec une clé
            <code>svc_live_</code> une fois la <a href="${BASE}/production">production ouverte</a>.
          </p>`
    }
    <p>
      <small id="month-tests"
        >${count(tests)} envoi(s) de test ce mois-ci (jamais postés ni facturés). <a href="${BASE}/envois?env=test">Voir les envois de test</a></small
      >
    </p>
  </section>`;
}

function balanceCard(points: { at: Date; balanceCents: number }[], current: number): Html {
  return html`<section class="card" aria-labelledby="balance-title" id="balance-overview">
    <h2 id="balance-title">Solde</h2>
    <p class="rate" id="balance-now">${euros(current)}</p>
    ${
      points.length
        ? stepChart(
            'balance-chart',
            'Évolution du solde',
            points.map((p) => ({ at: p.at, cents: p.balanceCents })),
          )
        : html`<p class="empty" id="balance-empty">
            Aucun mouvement pour l’instant. <a href="${BASE}/solde">Rechargez le solde</a> avant vos premiers envois de production.
          </p>`
    }
  </section>`;
}

function webhooksCard(endpoints: EndpointOutcomes[]): Html {
  return html`<section class="card" aria-labelledby="webhooks-title" id="webhooks-overview">
    <h2 id="webhooks-title">Webhooks (${count(DELIVERY_RETENTION_DAYS)} derniers jours)</h2>
    ${
      endpoints.length
        ? html`<ul class="rates">
              ${endpoints.map((e) => {
                const done = e.delivered + e.abandoned;
                const rate = done ? Math.round((e.delivered / done) * 1000) / 10 : null;
                return html`<li data-endpoint-id="${e.endpointId}" data-rate="${rate === null ? '' : String(rate)}">
                  <code>${e.url}</code><br />
                  ${
                    rate === null
                      ? html`<span>Aucune livraison terminée${e.pending ? ` (${count(e.pending)} en cours)` : ''}.</span>`
                      : html`<span class="rate">${decimalNumber(rate)} %</span>
                          <small
                            >de livraisons réussies : ${count(e.delivered)} livrée(s), ${count(e.abandoned)}
                            abandonnée(s)${e.pending ? `, ${count(e.pending)} en cours` : ''}</small
                          >`
                  }
                </li>`;
              })}
            </ul>
            <p><a href="${BASE}/webhooks/livraisons">Toutes les livraisons</a></p>`
        : html`<p class="empty" id="webhooks-empty">
            Aucune adresse de webhook. <a href="${BASE}/webhooks">Déclarez-en une</a> pour être prévenu de chaque étape de vos envois.
          </p>`
    }
  </section>`;
}

/** The home page's overview: the month's mailings by mode, the balance over time, the webhook endpoints' success rate. */
export function homeOverview(o: HomeOverview): Html {
  const cards = [
    o.month && monthCard(o.month),
    o.balance && balanceCard(o.balance, o.currentBalanceCents ?? 0),
    o.endpoints && webhooksCard(o.endpoints),
  ].filter((c): c is Html => !!c);
  if (!cards.length) return html``;
  return html`<div class="cards" id="overview">${cards}</div>`;
}
