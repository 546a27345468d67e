import '../libs/testing/src/app-paths';
import type { GlobalConfig } from 'jest';
import { reportMissingPrerequisites } from '../libs/testing/src/prerequisites';
import { prepareTemplate } from '../libs/testing/src/test-template';

// Jest runs a project's globalSetup only when the project has tests to run, before any of them.
// The database every test copies is migrated here, once (libs/testing/src/test-template.ts).
export default async (globalConfig: GlobalConfig) => {
  await reportMissingPrerequisites('e2e-postgres', globalConfig);
  await prepareTemplate('postgres');
};
