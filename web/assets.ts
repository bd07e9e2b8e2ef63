/** The only script of the developer space: copy buttons (served from /dashboard/static/, allowed by the CSP). */
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
`;

export const STYLE = `
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 0 auto; padding: 1rem 2rem; color: #1b1b1b; }
header { display: flex; gap: 1rem; align-items: center; border-bottom: 1px solid #ddd; padding-bottom: .5rem; margin-bottom: 1.5rem; }
header nav { display: flex; gap: 1rem; flex: 1; }
header form { margin: 0; }
label { display: block; margin: .75rem 0 .25rem; }
input[type=email], input[type=password] { width: 100%; max-width: 24rem; padding: .4rem; }
button { padding: .4rem .9rem; cursor: pointer; }
.notice { background: #eef6ee; border: 1px solid #9c9; padding: .75rem; }
.error { background: #fbeeee; border: 1px solid #c99; padding: .75rem; }
.secret { background: #fff8e1; border: 1px solid #e0c060; padding: .75rem; }
pre, code { background: #f4f4f4; padding: .2rem .4rem; overflow-x: auto; }
pre { padding: .75rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; border-bottom: 1px solid #eee; padding: .4rem; vertical-align: top; }
fieldset { border: 1px solid #ddd; margin: 1rem 0; }
td form { display: inline-block; margin: 0 .25rem .25rem 0; }
input[type=text], textarea, select { width: 100%; max-width: 36rem; padding: .4rem; box-sizing: border-box; }
dt { font-weight: bold; margin-top: .5rem; } dd { margin-left: 1rem; white-space: pre-line; } ol.events { margin: .25rem 0; padding-left: 1.2rem; }
`;
