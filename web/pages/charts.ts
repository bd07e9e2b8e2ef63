import { html, type Html } from '../html.js';
import { dayShort, euros } from './format.js';

/**
 * Charts drawn on the server as SVG (no script, no library): each an image with a French title and
 * description for screen readers, its figures also written out beside it. They scale with their
 * container (viewBox), so a phone shows them whole.
 */

export interface Bar {
  label: string;
  value: number;
  /** The value as written beside its bar. */
  text: string;
}

/** Horizontal bars, one per row: its label above, its value at its end. */
export function barChart(id: string, title: string, bars: Bar[]): Html {
  // About the width of a card: the text is drawn near its CSS size.
  const width = 340;
  const row = 44;
  const height = bars.length * row;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const room = 180;
  return html`<figure class="chart" id="${id}">
    <svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}-title">
      <title id="${id}-title">${title} : ${bars.map((b) => `${b.label} ${b.text}`).join(' ; ')}</title>
      ${bars.map((b, i) => {
        const y = i * row;
        const w = b.value > 0 ? Math.max(3, Math.round((b.value / max) * room)) : 0;
        return html`<text x="0" y="${y + 14}" class="chart-label">${b.label}</text>
          <rect x="0" y="${y + 20}" width="${w}" height="16" rx="3" class="chart-bar"></rect>
          <text x="${w + 8}" y="${y + 33}" class="chart-value">${b.text}</text>`;
      })}
    </svg>
  </figure>`;
}

/** A balance over time: a step line through each point, the lowest and highest values and the first and last days marked. */
export function stepChart(id: string, title: string, points: { at: Date; cents: number }[]): Html {
  const width = 340;
  const height = 170;
  const left = 78;
  const bottom = 24;
  const top = 10;
  const start = points[0]!.at.getTime();
  const end = Math.max(Date.now(), points[points.length - 1]!.at.getTime());
  const span = Math.max(1, end - start);
  const low = Math.min(0, ...points.map((p) => p.cents));
  const high = Math.max(1, ...points.map((p) => p.cents));
  const x = (t: number): number => Math.round(left + ((t - start) / span) * (width - left - 8));
  const y = (cents: number): number => Math.round(top + (1 - (cents - low) / (high - low)) * (height - top - bottom));
  let d = `M ${x(start)} ${y(points[0]!.cents)}`;
  for (const p of points.slice(1)) d += ` H ${x(p.at.getTime())} V ${y(p.cents)}`;
  d += ` H ${x(end)}`;
  const last = points[points.length - 1]!;
  return html`<figure class="chart" id="${id}">
    <svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}-title">
      <title id="${id}-title">${title} : de ${euros(points[0]!.cents)} le ${dayShort(points[0]!.at)} à ${euros(last.cents)} aujourd’hui</title>
      <line x1="${left}" y1="${y(low)}" x2="${width - 8}" y2="${y(low)}" class="chart-axis"></line>
      <line x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}" class="chart-axis"></line>
      <text x="${left - 6}" y="${y(high) + 5}" text-anchor="end" class="chart-value">${euros(high)}</text>
      <text x="${left - 6}" y="${y(low) + 5}" text-anchor="end" class="chart-value">${euros(low)}</text>
      <text x="${left}" y="${height - 4}" class="chart-label">${dayShort(points[0]!.at)}</text>
      <text x="${width - 8}" y="${height - 4}" text-anchor="end" class="chart-label">aujourd’hui</text>
      <path d="${d}" class="chart-line"></path>
    </svg>
  </figure>`;
}
