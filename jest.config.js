// Three tiers: fast unit tests; medium tests of repositories and the database engine against a real
// database of each dialect (*.db-spec.ts); the same end-to-end suites on SQLite and on PostgreSQL.
// Every database of a medium or e2e test is a copy of one migrated in the project's globalSetup.
const moduleNameMapper = {
  '^@app/(analytics|auth|billing|common|config|database|links|notifications|qr|redis|signatures|storage|testing)$':
    '<rootDir>/libs/$1/src',
  '^@app/(analytics|auth|billing|common|config|database|links|notifications|qr|redis|signatures|storage|testing)/(.*)$':
    '<rootDir>/libs/$1/src/$2',
};
const base = {
  rootDir: __dirname,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  moduleNameMapper,
};
const e2e = (db) => ({
  ...base,
  displayName: `e2e-${db}`,
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
  // The boot, docs-examples, start-stop, visitor-crash and worker tests start the built server or worker on
  // SQLite, and the browser tests drive rendering that does not depend on the database; once (on
  // SQLite) is enough for them. So it is for suites that test nothing the database decides: the
  // OpenAPI document (and its redocly lint), the HTTP parser's refusals, QR payload encodings and
  // the QR readability thread.
  testPathIgnorePatterns:
    db === 'postgres'
      ? [
          '/node_modules/',
          'boot\\.e2e-spec',
          'docs-examples\\.e2e-spec',
          'secrets-key-boot\\.e2e-spec',
          'cli-built\\.e2e-spec',
          'start-stop\\.e2e-spec',
          'visitor-crash\\.e2e-spec',
          'worker\\.e2e-spec',
          'signatures-browser\\.e2e-spec',
          'visitor-pages-browser\\.e2e-spec',
          'static-sites-browser\\.e2e-spec',
          'redirects-browser\\.e2e-spec',
          'swagger-ui-browser\\.e2e-spec',
          'openapi\\.e2e-spec',
          'http-parse-errors\\.e2e-spec',
          'qr-payloads\\.e2e-spec',
          'qr-readability-thread\\.e2e-spec',
        ]
      : // PostgreSQL going down is a PostgreSQL matter (SQLite is a file in the process).
        ['/node_modules/', 'database-unavailable\\.e2e-spec'],
  setupFiles: [`<rootDir>/test/setup-${db}.ts`],
  // Names each missing prerequisite (Chromium, PostgreSQL, Redis, the build) before the suites
  // start; runs only when this project has tests to run. The teardown repeats the lines at the end.
  globalSetup: `<rootDir>/test/global-setup-${db}.ts`,
});

const medium = (db) => ({
  ...base,
  displayName: `medium-${db}`,
  testMatch: ['<rootDir>/test/medium/**/*.db-spec.ts'],
  setupFiles: [`<rootDir>/test/medium/setup-${db}.ts`],
  globalSetup: `<rootDir>/test/medium/global-setup-${db}.ts`,
});

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 30000,
  // npm test (scripts/run-tests.js) runs the unit tests two at a time, then the other tiers one file
  // after another. A worker process is replaced once it holds more than this after a test file: in
  // one long-lived process, what each file leaves behind (module registries of ts-jest, the AWS
  // SDK, browsers' drivers) adds up past Node's heap limit.
  workerIdleMemoryLimit: '1536MB',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts'],
    },
    medium('sqlite'),
    medium('postgres'),
    e2e('sqlite'),
    // Two built API instances and a worker on PostgreSQL, Redis and s3rver (npm test builds first).
    { ...base, displayName: 'cluster', testMatch: ['<rootDir>/test/cluster/*.cluster-spec.ts'] },
    e2e('postgres'),
  ],
};
