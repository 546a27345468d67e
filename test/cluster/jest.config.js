// npm run test:cluster: two built API instances and a worker on PostgreSQL, Redis and s3rver.
const { projects } = require('../../jest.config');

const unit = projects.find((p) => p.displayName === 'unit');

/** @type {import('jest').Config} */
module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  moduleFileExtensions: unit.moduleFileExtensions,
  transform: unit.transform,
  moduleNameMapper: unit.moduleNameMapper,
  testMatch: ['<rootDir>/test/cluster/*.cluster-spec.ts'],
  testTimeout: 60000,
};
