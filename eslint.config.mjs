// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** Imports that climb into another app's sources (`../../worker/src/...`). */
const OTHER_APP = (app) => ({
  regex: `^(\\.\\./)+(?!${app}/)[a-z-]+/src(/|$)`,
  message: 'An app does not import another app (see docs/architecture.md).',
});

const LIBRARY_NEVER_APP = [
  {
    regex: '(^|/)apps(/|$)',
    message: 'A library never imports an app: dependencies point from apps to libs.',
  },
];

const LIBRARY_ENTRY_POINTS = [
  { regex: '(^|/)libs(/|$)', message: 'Import a library through its @app/<name> entry point.' },
  {
    regex: '^@app/[^/]+/',
    message: 'Import a library through its @app/<name> entry point, not its files.',
  },
];

/**
 * The boundaries of docs/architecture.md: libraries never import apps, and apps import libraries
 * only through their `@app/<name>` entry points.
 */
const boundaries = [
  {
    files: ['libs/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: LIBRARY_NEVER_APP }] },
  },
  ...['api', 'cli', 'worker'].map((app) => ({
    files: [`apps/${app}/**/*.ts`],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [...LIBRARY_ENTRY_POINTS, OTHER_APP(app)],
        },
      ],
    },
  })),
  {
    // Inside libs/database, entities and repositories do not import the roll-up arithmetic
    // (rollups/, used by the migrations that backfill and by @app/analytics) ...
    files: ['libs/database/src/**/*.ts'],
    ignores: ['libs/database/src/rollups/**', 'libs/database/src/migrations/**', '**/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...LIBRARY_NEVER_APP,
            {
              regex: '(^|/)rollups(/|$)',
              message: 'Entities and repositories do not import the roll-up code (rollups/).',
            },
          ],
        },
      ],
    },
  },
  {
    // ... and the roll-up code imports no entity or repository back.
    files: ['libs/database/src/rollups/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...LIBRARY_NEVER_APP,
            {
              regex: '^\\.\\./(?!db-values$|statistics/stat-tables$|engine/)',
              message:
                'The roll-up code imports only db-values, statistics/stat-tables and the engine from libs/database.',
            },
          ],
        },
      ],
    },
  },
  {
    // The one exception: with WORKER=internal the API process runs the worker's jobs itself, on
    // the API's own database connection (one writer for SQLite).
    files: ['apps/api/src/app.module.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: LIBRARY_ENTRY_POINTS }] },
  },
];

/**
 * The database engine's seam (libs/database/src/engine, docs/architecture.md): writes go through
 * `Db.write`, which is the only code that opens a transaction or holds a connection of its own,
 * and no TypeORM EntityManager is passed around outside it.
 */
const ENGINE_ONLY =
  'Only libs/database/src/engine opens transactions and connections: use Db.write.';
const engineSeam = {
  files: ['apps/**/*.ts', 'libs/**/*.ts'],
  ignores: ['libs/database/src/engine/**', 'libs/database/src/migrations/**'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: "CallExpression[callee.property.name='transaction']",
        message: ENGINE_ONLY,
      },
      {
        selector: "CallExpression[callee.property.name='createQueryRunner']",
        message: ENGINE_ONLY,
      },
    ],
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: [
          {
            name: 'typeorm',
            importNames: ['EntityManager'],
            message:
              'No EntityManager outside libs/database/src/engine: use Db (manager, repository).',
          },
        ],
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', '**/*.js', '**/*.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/explicit-module-boundary-types': 'off',
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  ...boundaries,
  engineSeam,
  {
    // Node's own modules, then packages, then our libraries (@app/...), then this app's files.
    plugins: { 'import-x': importX },
    settings: { 'import-x/internal-regex': '^@app/' },
    rules: {
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', ['parent', 'sibling', 'index']],
          'newlines-between': 'never',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
    },
  },
  {
    // No import cycle among the apps' and libraries' modules, type-only imports included: a cycle
    // makes the order of module evaluation matter (a class read before its module has run), and
    // hides which of two files is the lower one. @app/<name> resolves through tsconfig.json's paths.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.js', '.json', '.node'],
          tsconfig: { configFile: `${import.meta.dirname}/tsconfig.json`, references: 'auto' },
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Tests read response bodies, which supertest types as any.
    files: ['test/**/*.ts', '**/*.spec.ts', 'libs/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
