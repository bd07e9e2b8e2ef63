import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'puppeteer-core';

/** axe-core's browser build, read once from node_modules: injected by the tests, never served to users. */
let source: string | undefined;
const axeSource = (): string => (source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules, and its best practices) on the page as it stands and
 * throws on any `serious` or `critical` violation, naming the rule, the page and the elements.
 * Evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
export async function expectAccessible(page: Page): Promise<void> {
  const url = page.url();
  // A PDF, a download or a page of another origin (the local test payment page is ours too) is not judged.
  // The page's own scripts are evaluated as text (these files are compiled without the DOM's types).
  const isHtml = await page.evaluate("document.contentType === 'text/html'").catch(() => false);
  if (!isHtml) return;
  if (!(await page.evaluate("'axe' in window"))) await page.evaluate(axeSource());
  const violations = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))",
  )) as AxeViolation[];
  const grave = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (grave.length)
    throw new Error(
      `axe-core: ${grave.length} serious or critical violation(s) on ${url}:\n` +
        grave
          .map(
            (v) =>
              `- ${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${JSON.stringify(n.target)} ${n.failureSummary ?? ''}`.replace(/\n/g, ' ')).join('\n')}`,
          )
          .join('\n'),
    );
}

/** Throws when the page is wider than its window (document.documentElement.scrollWidth > innerWidth). */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  // The first element that reaches beyond the window (outside a scroll container), to say what overflows.
  const { scrollWidth, innerWidth, widest } = (await page.evaluate(`(() => {
    const width = window.innerWidth;
    const culprit = Array.from(document.querySelectorAll('body *')).find((e) => e.getBoundingClientRect().right > width + 1 && !e.closest('.table-scroll, pre'));
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: width,
      widest: culprit ? culprit.tagName.toLowerCase() + (culprit.id ? '#' + culprit.id : '') + '.' + String(culprit.className) : '',
    };
  })()`)) as { scrollWidth: number; innerWidth: number; widest: string };
  if (scrollWidth > innerWidth) throw new Error(`${page.url()} overflows at ${innerWidth} px: scrollWidth ${scrollWidth} (${widest})`);
}
