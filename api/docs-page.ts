type Json = Record<string, unknown>;

import { escapeHtml as escape } from '../lib/html.js';

/** A self-contained, human-readable page rendered from the OpenAPI document (no external assets). */
export function renderDocsPage(doc: Json): string {
  const info = doc.info as Json;
  const sections = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters as Json[]).map(
        (p) =>
          `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}</td><td>${p.required ? 'yes' : ''}</td><td><code>${escape(JSON.stringify(p.schema))}</code></td></tr>`,
      );
      const body = op.requestBody ? `<h4>Body</h4><pre>${escape(JSON.stringify((op.requestBody as Json).content, null, 2))}</pre>` : '';
      const responses = Object.entries(op.responses as Record<string, Json>)
        .map(([status, r]) => `<li><b>${status}</b> ${escape(r.description)}</li>`)
        .join('');
      const html = `<section id="${escape(op.operationId)}">
<h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p>${escape(op.summary)}${op['x-required-scope'] ? ` — scope <code>${escape(op['x-required-scope'])}</code>` : ''}</p>
${op.description ? `<p>${escape(op.description)}</p>` : ''}
${params.length ? `<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Schema</th></tr>${params.join('')}</table>` : ''}
${body}<h4>Responses</h4><ul>${responses}</ul></section>`;
      const tag = ((op.tags as string[]) ?? ['Other'])[0]!;
      sections.set(tag, [...(sections.get(tag) ?? []), html]);
    }
  }
  const content = [...sections].map(([tag, ops]) => `<h2>${escape(tag)}</h2>${ops.join('\n')}`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(info.title)} ${escape(info.version)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}code,pre{background:#f4f4f4;border-radius:3px}
pre{padding:.5rem;overflow:auto;max-height:24rem}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
.m{font-weight:bold;padding:0 .3rem;border-radius:3px;color:#fff}.get{background:#2a7}.post{background:#27c}section{border-top:1px solid #eee;margin-top:1rem}</style></head>
<body><h1>${escape(info.title)} <small>v${escape(info.version)}</small></h1><p>${escape(info.description)}</p>
<p>Machine-readable document: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1).</p>${content}</body></html>`;
}
