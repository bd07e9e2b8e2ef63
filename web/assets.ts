/**
 * The only script of the developer space (served from /dashboard/static/, allowed by the CSP): copy
 * buttons; a PDF chosen in a letter's form put, base64, into its hidden field (the forms are
 * urlencoded); the batch page's CSV file read into its textarea; the preview of a letter's review
 * page shown on load.
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
document.addEventListener('DOMContentLoaded', function () {
  var button = document.querySelector('[data-autoclick]');
  if (button) button.click();
});
`;

export const STYLE = `
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 0 auto; padding: 1rem 2rem; color: #1b1b1b; }
header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; border-bottom: 1px solid #ddd; padding-bottom: .5rem; margin-bottom: 1.5rem; }
header strong { margin-right: auto; }
header nav { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; order: 1; flex-basis: 100%; }
header a, header span, header button { white-space: nowrap; }
header form { margin: 0; }
label { display: block; margin: .75rem 0 .25rem; }
input[type=email], input[type=password] { width: 100%; max-width: 24rem; padding: .4rem; }
input, textarea, select, button { font: inherit; }
button { padding: .3rem .9rem; cursor: pointer; }
.notice { background: #eef6ee; border: 1px solid #9c9; padding: .75rem; }
.error { background: #fbeeee; border: 1px solid #c99; padding: .75rem; }
.secret { background: #fff8e1; border: 1px solid #e0c060; padding: .75rem; }
div.secret { margin: 1rem 0; }
main > form { margin-bottom: 1rem; }
pre, code { background: #f4f4f4; padding: .2rem .4rem; overflow-x: auto; }
pre { padding: .75rem; }
code { overflow-wrap: anywhere; }
tr[data-key-id] code { white-space: nowrap; }
tr[data-endpoint-id] > td:first-child, tr[data-delivery-id] > td:nth-child(3) { min-width: min(24rem, 30vw); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; border-bottom: 1px solid #eee; padding: .4rem; vertical-align: top; }
fieldset { border: 1px solid #ddd; margin: 1rem 0; }
fieldset label:has(> input[type=checkbox]) { display: inline-block; margin-right: 1.5rem; }
td form { display: inline-block; margin: 0 .25rem .25rem 0; }
input[type=text], input[type=url], textarea, select { width: 100%; max-width: 36rem; padding: .4rem; box-sizing: border-box; }
input[type=number] { padding: .4rem; }
form.filters { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem .75rem; }
form.filters label, form.filters p { margin: 0; }
form.filters select, form.filters input { width: auto; }
@media (max-width: 48rem) {
  body { padding: .5rem .75rem; }
  table { display: block; overflow-x: auto; }
}
.field-error { margin: .25rem 0; padding: .4rem; } ul.suggestions { margin: .25rem 0; }
ol.quickstart li { margin-bottom: .75rem; }
dt { font-weight: bold; margin-top: .5rem; } dd { margin-left: 1rem; } #production-request dd { white-space: pre-line; } ol.events { margin: .25rem 0; padding-left: 1.2rem; }
`;
