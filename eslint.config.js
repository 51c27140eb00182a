// @ts-check
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const webFeaturesDir = path.join(import.meta.dirname, 'apps/web/src/features');
const webFeatures = fs.existsSync(webFeaturesDir)
  ? fs.readdirSync(webFeaturesDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
  : [];

const apiModulesDir = path.join(import.meta.dirname, 'apps/api/src/modules');
const apiModules = fs.existsSync(apiModulesDir)
  ? fs.readdirSync(apiModulesDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)
  : [];

const apiNeverImportsWeb = { regex: '(^@sf/web)|(apps/web)', message: 'The API never imports the web app.' };
const composition = {
  regex: '(^|/)(app|jobs|server|demo-loyalty)\\.ts$|(^|/)cli/',
  message: 'The app, the job list, the server and the CLIs compose the modules; nothing they compose imports them.',
};

/**
 * The API's module boundaries (docs/architecture.md, "Module boundaries"), the same tool as the web
 * app's feature folders: a module uses another only through that module's service functions
 * (`<name>.service.ts`; its `*.schema.ts` tables may be joined); shared machinery (lib, db, plugins,
 * identity, config) never imports a module — src/app.ts and src/jobs.ts compose them. Tests may reach
 * further (fixtures, repositories).
 */
const apiBoundaries = [
  ...apiModules.map((module) => ({
    files: [`apps/api/src/modules/${module}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            apiNeverImportsWeb,
            {
              regex: `^\\.\\./(?!${module}/)[a-z-]+/(?![a-z-]+\\.(service|schema)\\.ts$)`,
              message: "A module uses another module only through its service functions (<name>.service.ts), never its repository, routes or helpers: add a service function there.",
            },
            composition,
          ],
        },
      ],
    },
  })),
  {
    files: ['apps/api/src/{lib,db,plugins,identity,config}/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/api/src/db/schema.ts'],
    rules: {
      // The typescript-eslint version of the same rule, for `allowTypeImports`: a plugin may name a
      // module's type (the request's API key) without running its code.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)modules/',
              allowTypeImports: true,
              message: 'Shared machinery (lib, db, plugins, identity, config) never imports a module: src/app.ts and src/jobs.ts compose them (pass a function in).',
            },
            composition,
          ],
        },
      ],
    },
  },
  {
    // The one schema file Drizzle reads re-exports each module's tables, and nothing else of them.
    files: ['apps/api/src/db/schema.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [apiNeverImportsWeb, { regex: '(^|/)modules/[a-z-]+/(?![a-z-]+\\.schema\\.ts$)', message: 'db/schema.ts re-exports the modules\' tables only.' }] },
      ],
    },
  },
];

/**
 * Import direction (STYLE.md): web → contract ← api. The web app never imports server code, the
 * contract imports nothing but zod, a feature never imports another feature or the app shell
 * (route modules in src/app compose features).
 */
const importDirection = [
  {
    files: ['packages/contract/**/*.ts'],
    // Tests beside the contract's code run under Vitest; they are not part of what clients import.
    ignores: ['packages/contract/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            // libphonenumber-js/min: phone numbers are checked the same way by forms and API (decision 012).
            {
              regex: '^(?!zod$|zod/|libphonenumber-js/min$|\\./|\\.\\./).*',
              message: 'The contract imports nothing but zod, libphonenumber-js/min and its own files.',
            },
            { regex: '\\.\\./\\.\\./', message: 'The contract may not reach outside its package.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^@sf/api)|(apps/api)|(\\.\\./api/src)', message: 'The web app never imports server code.' }] },
      ],
    },
  },
  {
    files: ['apps/api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [apiNeverImportsWeb] },
      ],
    },
  },
  ...webFeatures.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^@sf/api)|(apps/api)', message: 'The web app never imports server code.' },
            {
              regex: `(^|/)features/(?!${feature}/)[^/]+`,
              message: 'A feature never imports another feature: compose them in a route module under src/app.',
            },
            {
              regex: `^\\.\\./\\.\\./(?!${feature}/)[a-z-]+/`,
              message: 'A feature never imports another feature: compose them in a route module under src/app.',
            },
            { regex: '(^|/)app/', message: 'A feature never imports the app shell.' },
          ],
        },
      ],
    },
  })),
];

const processEnvRule = { selector: "MemberExpression[object.name='process'][property.name='env']", message: 'Read settings through apps/api/src/config/env.ts.' };

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', '**/coverage/**', '**/test-results/**', '**/playwright-report/**', 'apps/api/src/db/migrations/**', 'apps/api/.compiled-server/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', fetch: 'readonly', window: 'readonly', document: 'readonly', localStorage: 'readonly', navigator: 'readonly', Buffer: 'readonly', AbortController: 'readonly', Response: 'readonly', Request: 'readonly', Headers: 'readonly', FormData: 'readonly', Blob: 'readonly', File: 'readonly', structuredClone: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', crypto: 'readonly', performance: 'readonly', URLSearchParams: 'readonly', queueMicrotask: 'readonly', HTMLElement: 'readonly', Event: 'readonly', KeyboardEvent: 'readonly', MouseEvent: 'readonly', RequestInit: 'readonly', AbortSignal: 'readonly', DOMException: 'readonly', getComputedStyle: 'readonly', sessionStorage: 'readonly', location: 'readonly', history: 'readonly', requestAnimationFrame: 'readonly', Intl: 'readonly', NodeJS: 'readonly', globalThis: 'readonly', setImmediate: 'readonly' } } },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error', processEnvRule],
    },
  },
  {
    // react-router's setSearchParams starts from the last render's parameters, so a second write before
    // the next render lost the first: every write goes through the list kit's writer (decision 013).
    files: ['apps/web/src/**'],
    ignores: ['apps/web/src/hooks/use-list-params.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        processEnvRule,
        {
          selector: "VariableDeclarator[init.callee.name='useSearchParams'] > ArrayPattern > :nth-child(2)",
          message: 'Write search parameters through useSearchParamsWriter (src/hooks/use-list-params.ts).',
        },
      ],
    },
  },
  {
    // The env module is the one place that reads process.env; tools and tests set it for child processes.
    files: ['apps/api/src/config/env.ts', 'apps/api/test/**', 'apps/web/e2e/**', 'apps/web/playwright.config.ts', 'apps/web/scripts/**', 'scripts/**', 'bench/**', '**/*.config.{ts,js,mjs}'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  ...importDirection,
  ...apiBoundaries,
);
