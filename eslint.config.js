// ESLint (typescript-eslint) for the whole project; formatting is Prettier's (npm run format).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

const NODE_BUILTINS = [
  'node:*',
  'fs',
  'path',
  'crypto',
  'http',
  'https',
  'net',
  'os',
  'child_process',
  'dns',
  'url',
  'stream',
  'zlib',
  'events',
  'timers',
  'util',
  'worker_threads',
];

export default tseslint.config(
  // sdk/'s generated code is the generators' (npm run sdk:generate); its hand-written code is linted.
  { ignores: ['dist/', 'node_modules/', '.data/', '.exp/', 'sdk/typescript/dist/', 'sdk/typescript/src/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    // CommonJS configuration files (dependency-cruiser's).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always'],
      'max-len': [
        'error',
        { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreComments: false, ignoreUrls: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  {
    // Tests may use `any` for parsed JSON bodies.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Workflow code is replayed: deterministic, no I/O. It may import @temporalio/workflow,
    // @temporalio/common, its contract, other workflows, and the domain's pure state and type
    // modules (and activity types, as types).
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: NODE_BUILTINS.filter((name) => !name.includes('*')).map((name) => ({ name, message: 'Workflow code is deterministic: no Node built-ins.' })),
          patterns: [
            { group: ['node:*'], message: 'Workflow code is deterministic: no Node built-ins.' },
            { group: ['@temporalio/client', '@temporalio/worker', '@temporalio/activity'], message: 'Workflows use @temporalio/workflow only.' },
            { group: ['koa', '@koa/*', 'knex', 'pg', 'got', 'puppeteer-core', 'pino', 'joi'], message: 'Workflow code does no I/O: call an activity.' },
            {
              group: ['**/api/*', '**/lib/*', '**/db/*', '**/scripts/*', '**/worker/*', '**/temporal/*'],
              message: 'Workflow code imports its contract, other workflows and pure domain modules only.',
            },
            { group: ['**/activities/*'], allowTypeImports: true, message: 'Workflows call activities through proxyActivities: import their types only.' },
            {
              group: [
                '**/domain/*/*',
                '!**/domain/mailings/states.js',
                '!**/domain/mailings/creation-protocol.js',
                '!**/domain/mailings/shipment.js',
                '!**/domain/mailings/send-date-filing-time.js',
                '!**/domain/webhooks/event-types.js',
                '!**/domain/letters/render.js',
              ],
              allowTypeImports: true,
              message: 'Workflow code imports its contract, other workflows and pure domain modules only.',
            },
          ],
        },
      ],
    },
  },
  {
    // Type-aware: a promise left floating in a workflow is a command issued out of order, in an
    // activity an unhandled rejection that kills the worker.
    files: ['workflows/**/*.ts', 'activities/**/*.ts', 'temporal/**/*.ts', 'worker/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
  {
    // The domain knows neither HTTP nor the Temporal client.
    files: ['domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['koa', '@koa/*'], message: 'The domain knows no HTTP: the API calls it.' },
            { group: ['@temporalio/client', '@temporalio/worker'], message: 'The domain reaches workflows through Deps.workflows.' },
            { group: ['**/api/*', '**/api/*/*'], message: 'The domain may not import the HTTP layer (api/): the API calls the domain.' },
            {
              group: ['**/workflows/*', '**/activities/*', '**/activities/*/*', '**/temporal/*'],
              message: 'The domain owns plain data and is called by workflows and activities, never the reverse.',
            },
          ],
        },
      ],
    },
  },
);
