import type { GlobalConfig } from 'jest';
import { reportMissingPrerequisites } from '../libs/testing/src/prerequisites';

// Jest runs a project's globalSetup only when the project has tests to run, before any of them.
export default (globalConfig: GlobalConfig) =>
  reportMissingPrerequisites('e2e-sqlite', globalConfig);
