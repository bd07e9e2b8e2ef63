/**
 * The only script of the developer space (served from /dashboard/static/, allowed by the CSP): copy
 * buttons; a PDF chosen in a letter's form put, base64, into its hidden field (the forms are
 * urlencoded); the batch page's CSV file read into its textarea; the preview of a letter's review
 * page shown on load; the menu folded on a narrow screen; a running batch's page, and a CSV file's
 * check, following their work in place.
 */
export const SCRIPT = `'use strict';
document.addEventListener('click', function (event) {
  var button = event.target.closest('[data-copy]');
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(function () {
    button.textContent = 'Copié';
    setTimeout(function () { button.textContent = 'Copier'; }, 2000);
  });
});
// A CSV file chosen on the batch page is read into its textarea: the form posts text only.
document.addEventListener('change', function (event) {
  var input = event.target;
  if (!input.matches || !input.matches('[data-csv-into]') || !input.files || !input.files[0]) return;
  var target = document.getElementById(input.getAttribute('data-csv-into'));
  input.files[0].text().then(function (text) { if (target) target.value = text; });
});
document.addEventListener('change', function (event) {
  var input = event.target.closest('input[type=file][data-base64-into]');
  if (!input || !input.files || !input.files[0]) return;
  var target = document.getElementById(input.getAttribute('data-base64-into'));
  var reader = new FileReader();
  reader.onload = function () { target.value = String(reader.result).replace(/^data:[^,]*,/, ''); };
  reader.readAsDataURL(input.files[0]);
});
// The menu folds behind its summary on a narrow screen (the stylesheet's 48rem), open everywhere else.
document.addEventListener('DOMContentLoaded', function () {
  var menu = document.querySelector('details.menu');
  if (menu && window.matchMedia('(max-width: 48rem)').matches) menu.open = false;
});
document.addEventListener('DOMContentLoaded', function () {
  var button = document.querySelector('[data-autoclick]');
  if (button) button.click();
});
// A page whose work goes on after its answer (a batch's mailings, a CSV file's check) follows it:
// read again every data-follow-every ms (3 s by default), each of its live parts ([data-live], by
// id) replaced with its data- attributes, until [data-follow] no longer says "running" (or after
// 20 minutes: a sandbox batch waits for its advances).
document.addEventListener('DOMContentLoaded', function () {
  var follow = document.querySelector('[data-follow="running"]');
  if (!follow || !window.fetch || !window.DOMParser) return;
  var every = Number(follow.getAttribute('data-follow-every')) || 3000;
  var started = Date.now();
  var next = function () {
    if (Date.now() - started > 20 * 60 * 1000) return;
    fetch(location.href, { credentials: 'same-origin' })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (text) {
        if (!text) return setTimeout(next, every);
        var fresh = new DOMParser().parseFromString(text, 'text/html');
        document.querySelectorAll('[data-live]').forEach(function (part) {
          var replacement = part.id && fresh.getElementById(part.id);
          if (!replacement) return;
          part.innerHTML = replacement.innerHTML;
          Array.prototype.forEach.call(replacement.attributes, function (attribute) {
            if (attribute.name.indexOf('data-') === 0) part.setAttribute(attribute.name, attribute.value);
          });
        });
        var state = fresh.querySelector('[data-follow]');
        if (state && state.getAttribute('data-follow') === 'running') setTimeout(next, every);
      })
      .catch(function () { setTimeout(next, every); });
  };
  setTimeout(next, every);
});
`;

/**
 * The developer space's one stylesheet, hand-written (no library, served by our own process at
 * /dashboard/static/app.css). Tokens first: a type scale (1.2 ratio), a spacing scale, colours whose
 * text/background pairs meet WCAG AA (4.5:1 at least; most reach 7:1). Then the frame (header,
 * grouped menu), the elements, the components (badges, messages, tables in their scroll container,
 * the timeline, the charts) and the narrow screen (390 px): nothing is wider than the screen.
 */
export const STYLE = `
:root {
  --text: #16191d; --muted: #4a5360; --border: #d3d9e0; --surface: #f4f6f9; --page: #ffffff;
  --accent: #1d4ed8; --accent-strong: #1e3a8a; --accent-soft: #e3ebff; --focus: #b45309;
  --ok-bg: #dcfce7; --ok: #14532d; --warn-bg: #fef3c7; --warn: #713f12; --bad-bg: #fee2e2; --bad: #7f1d1d; --grey-bg: #e5e7eb; --grey: #1f2937;
  --step--1: .833rem; --step-0: 1rem; --step-1: 1.2rem; --step-2: 1.44rem; --step-3: 1.728rem;
  --space-1: .25rem; --space-2: .5rem; --space-3: .75rem; --space-4: 1rem; --space-5: 1.5rem; --space-6: 2rem;
  --radius: .375rem;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: var(--step-0); line-height: 1.5; color: var(--text); background: var(--page); margin: 0; overflow-wrap: break-word; }
a { color: var(--accent); text-underline-offset: .15em; }
a:hover { color: var(--accent-strong); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: var(--space-2); top: -3rem; background: var(--page); padding: var(--space-2) var(--space-3); z-index: 2; }
.skip:focus { top: var(--space-2); }
h1 { font-size: var(--step-3); line-height: 1.2; margin: 0 0 var(--space-5); }
h2 { font-size: var(--step-2); line-height: 1.25; margin: var(--space-6) 0 var(--space-3); }
h3 { font-size: var(--step-1); margin: var(--space-5) 0 var(--space-2); }
small, .muted { color: var(--muted); font-size: var(--step--1); }
p { margin: 0 0 var(--space-4); }

/* The frame: brand and account on one line, the menu grouped by task below. */
header { background: var(--surface); border-bottom: 1px solid var(--border); padding: var(--space-3) var(--space-6); display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2) var(--space-4); }
header .brand { font-weight: 700; color: var(--text); text-decoration: none; margin-right: auto; font-size: var(--step-1); }
header .brand span { font-weight: 400; color: var(--muted); font-size: var(--step-0); }
.account-bar { display: flex; align-items: center; gap: var(--space-3); flex-wrap: wrap; }
.account-bar .user { color: var(--muted); overflow-wrap: anywhere; }
header form { margin: 0; }
details.menu { flex-basis: 100%; }
details.menu > summary { display: none; }
header nav { flex-basis: 100%; display: flex; flex-wrap: wrap; gap: var(--space-2) var(--space-6); align-items: flex-start; border-top: 1px solid var(--border); padding-top: var(--space-3); }
header nav.nav-anonymous { gap: var(--space-4); }
.nav-home { font-weight: 600; }
.nav-group { min-width: 0; }
.nav-title { display: block; font-size: var(--step--1); font-weight: 700; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
.nav-group ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0 var(--space-4); }
.nav-group a { display: inline-block; padding: var(--space-1) 0; }
/* The current page: its link bold, underlined thick and not a link colour; its group's title in the accent colour, a bar beside it. */
header nav a[aria-current=page] { font-weight: 700; color: var(--text); text-decoration-thickness: 3px; text-decoration-color: var(--accent); }
.nav-group[data-current] { border-left: 3px solid var(--accent); padding-left: var(--space-2); margin-left: calc(-3px - var(--space-2)); }
.nav-group[data-current] .nav-title { color: var(--accent-strong); }
main { max-width: 76rem; margin: 0 auto; padding: var(--space-6); }
main:focus { outline: none; }

/* Forms */
label { display: block; margin: var(--space-3) 0 var(--space-1); font-weight: 600; }
fieldset label, form.filters label { font-weight: 400; }
input, textarea, select, button { font: inherit; }
input[type=email], input[type=password] { width: 100%; max-width: 24rem; }
input[type=text], input[type=url], input[type=email], input[type=password], input[type=number], input[type=date], textarea, select {
  padding: var(--space-2); border: 1px solid #6b7480; border-radius: var(--radius); background: var(--page); color: var(--text);
}
input[type=text], input[type=url], textarea, select { width: 100%; max-width: 36rem; }
button { padding: var(--space-2) var(--space-4); cursor: pointer; border-radius: var(--radius); border: 1px solid var(--accent); background: var(--accent); color: #fff; font-weight: 600; }
button:hover { background: var(--accent-strong); border-color: var(--accent-strong); }
button.secondary, td button, .erase button { background: var(--page); color: var(--accent-strong); }
button.secondary:hover, td button:hover, .erase button:hover { background: var(--accent-soft); }
fieldset { border: 1px solid var(--border); border-radius: var(--radius); margin: var(--space-4) 0; padding: var(--space-3) var(--space-4); min-width: 0; }
legend { font-weight: 700; padding: 0 var(--space-1); }
fieldset label:has(> input[type=checkbox]) { display: inline-block; margin-right: var(--space-5); }
main > form { margin-bottom: var(--space-4); }
td form { display: inline-block; margin: 0 var(--space-1) var(--space-1) 0; }
form.filters { display: flex; flex-wrap: wrap; align-items: center; gap: var(--space-2) var(--space-3); background: var(--surface); padding: var(--space-3); border-radius: var(--radius); margin-bottom: var(--space-4); }
form.filters label, form.filters p { margin: 0; }
form.filters select, form.filters input { width: auto; max-width: 100%; }

/* Messages */
.notice, .error, .secret { padding: var(--space-3) var(--space-4); border-radius: var(--radius); border: 1px solid; }
.notice { background: var(--ok-bg); border-color: #86c79a; color: var(--ok); }
.error { background: var(--bad-bg); border-color: #e3a3a3; color: var(--bad); }
.secret { background: var(--warn-bg); border-color: #e0c060; }
div.secret { margin: var(--space-4) 0; }
.field-error { margin: var(--space-1) 0; padding: var(--space-2); } ul.suggestions { margin: var(--space-1) 0; }
.empty { background: var(--surface); border: 1px dashed var(--border); border-radius: var(--radius); padding: var(--space-5); }

/* Code */
pre, code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9em; background: var(--surface); border-radius: .25rem; }
code { padding: .1rem .3rem; overflow-wrap: anywhere; }
pre { padding: var(--space-3); overflow-x: auto; max-width: 100%; }
tr[data-key-id] code { white-space: nowrap; }

/* Tables: each in its scroll container (web/pages/layout.ts), never wider than the page. */
.table-scroll { max-width: 100%; overflow-x: auto; margin: 0 0 var(--space-4); border: 1px solid var(--border); border-radius: var(--radius); }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; border-bottom: 1px solid var(--border); padding: var(--space-2) var(--space-3); vertical-align: top; }
th { background: var(--surface); font-weight: 700; white-space: nowrap; }
tbody tr:last-child td { border-bottom: 0; }
tr[data-endpoint-id] > td:first-child, tr[data-delivery-id] > td:nth-child(3) { min-width: min(24rem, 30vw); }

/* Badges: one per status, the same words and colours on every page (web/pages/badges.ts). */
.badge { display: inline-block; padding: .1rem .5rem; border-radius: .75rem; font-size: var(--step--1); font-weight: 600; line-height: 1.5; }
/* A batch's progress: the bar, then its mailings counted by status. */
#batch-progress progress, #batch-check progress { width: min(20rem, 100%); vertical-align: middle; margin: 0 var(--space-2); }
.batch-counts { list-style: none; padding: 0; margin: 0 0 var(--space-4); display: flex; flex-wrap: wrap; gap: var(--space-2) var(--space-4); }
.badge-progress { background: var(--accent-soft); color: var(--accent-strong); }
.badge-success { background: var(--ok-bg); color: var(--ok); }
.badge-warning { background: var(--warn-bg); color: var(--warn); }
.badge-danger { background: var(--bad-bg); color: var(--bad); }
.badge-neutral { background: var(--grey-bg); color: var(--grey); }

/* Lists and details */
ol.quickstart li { margin-bottom: var(--space-3); }
dt { font-weight: 700; margin-top: var(--space-2); } dd { margin-left: var(--space-4); }
#production-request dd { white-space: pre-line; }
ol.events { margin: var(--space-1) 0; padding-left: 1.2rem; font-size: var(--step--1); }

/* A mailing's timeline */
ol.timeline { list-style: none; margin: 0 0 var(--space-5); padding: 0; border-left: 3px solid var(--border); }
ol.timeline li { position: relative; padding: 0 0 var(--space-4) var(--space-5); }
ol.timeline li::before { content: ""; position: absolute; left: -.55rem; top: .35rem; width: .8rem; height: .8rem; border-radius: 50%; background: var(--accent); border: 2px solid var(--page); }
ol.timeline time { display: block; color: var(--muted); font-size: var(--step--1); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: var(--space-4); margin: 0 0 var(--space-5); }
.card { border: 1px solid var(--border); border-radius: var(--radius); padding: var(--space-4); min-width: 0; }
.card h2, .card h3 { margin-top: 0; font-size: var(--step-1); }
.chart svg { width: 100%; height: auto; display: block; }
.chart { margin: 0 0 var(--space-3); }
.chart-bar { fill: var(--accent); }
.chart-line { fill: none; stroke: var(--accent); stroke-width: 3; }
.chart-axis { stroke: #6b7480; stroke-width: 1; }
.chart-label, .chart-value { fill: var(--text); font-size: 13px; font-family: inherit; }
.chart-value { font-weight: 600; }
.rate { font-size: var(--step-2); font-weight: 700; }

@media (max-width: 48rem) {
  header { padding: var(--space-2) var(--space-4); }
  details.menu > summary { display: inline-block; cursor: pointer; font-weight: 600; color: var(--accent-strong); border: 1px solid var(--accent); border-radius: var(--radius); padding: var(--space-1) var(--space-3); margin: var(--space-1) 0; }
  details.menu[open] > summary { margin-bottom: var(--space-2); }
  header nav { display: grid; grid-template-columns: 1fr 1fr; gap: var(--space-3); }
  .nav-home { grid-column: 1 / -1; }
  .nav-group ul { display: block; }
  main { padding: var(--space-4); }
  h1 { font-size: var(--step-2); }
  input[type=email], input[type=password] { max-width: 100%; }
  tr[data-endpoint-id] > td:first-child, tr[data-delivery-id] > td:nth-child(3) { min-width: 12rem; }
}
`;
