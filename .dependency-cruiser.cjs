/**
 * The import graph's rules, checked by `npm run lint` (dependency-cruiser reads type-only imports
 * too). ESLint guards what a workflow may import for determinism; these guard the layers.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle anywhere: each type has one home, and imports go one way.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-below-temporal',
      severity: 'error',
      comment: 'The domain owns the plain data and knows neither workflows, activities, the Temporal client nor HTTP: they call it.',
      from: { path: '^domain/' },
      to: { path: '^(workflows|activities|temporal|worker|api|web|server|scripts)/' },
    },
    {
      name: 'domain-without-machinery',
      severity: 'error',
      comment:
        "The domain holds rules and each table's SQL (through knex), not the processes' machinery: no listening connection (db/listener.ts: the API's caches hold it), no driver, HTTP server or Temporal SDK.",
      from: { path: '^domain/' },
      to: { path: '^db/listener\\.ts$|(^|/)node_modules/(@types/)?(pg|pg-[^/]+|koa|koa-[^/]+|koa__[^/]+|@koa/[^/]+|@temporalio/[^/]+|prom-client)/' },
    },
    {
      name: 'lib-below-domain',
      severity: 'error',
      comment: 'lib/ holds our general-purpose libraries (configuration, PDF reading, ports…): it knows none of the service.',
      from: { path: '^lib/' },
      to: { path: '^(domain|db|workflows|activities|temporal|worker|api|web|scripts)/' },
    },
    {
      name: 'activities-below-workflows',
      severity: 'error',
      comment: 'Activities are plain functions over the domain; of the workflows they may know the contract only (failure types).',
      from: { path: '^activities/' },
      to: { path: '^(workflows/(?!contract\\.ts)|temporal/|worker/|api/|web/|server/|scripts/)' },
    },
    {
      name: 'workflows-without-client',
      severity: 'error',
      comment: 'Workflow code is deterministic: the Temporal client and the processes are not for it.',
      from: { path: '^workflows/' },
      to: { path: '^(temporal|worker|api|web|server|scripts|db|lib)/' },
    },
    {
      name: 'api-without-web',
      severity: 'error',
      comment: 'The API knows neither the developer space nor the process that serves both: server/ composes them.',
      from: { path: '^api/' },
      to: { path: '^(web|server)/' },
    },
    {
      name: 'web-without-server',
      severity: 'error',
      comment: 'The developer space is composed by server/, never the reverse.',
      from: { path: '^web/' },
      to: { path: '^server/' },
    },
    {
      name: 'web-uses-api-schemas-and-error-statuses-only',
      severity: 'error',
      comment:
        'Of the API, the developer space uses its Joi schemas (api/schemas/: the one owner of each SPEC.md limit) and the one ' +
        "mapping of domain errors to statuses (api/errors.ts: a send refused on a page keeps the status the API answers); nothing else of the API's chain.",
      from: { path: '^web/' },
      to: { path: '^api/(?!schemas/|errors\\.ts$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
