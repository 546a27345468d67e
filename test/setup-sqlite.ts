import { useAppFactory } from '@app/testing';
import { createApp } from '../apps/api/src/configure-app';

process.env.LINKDOCK_TEST_DB = 'sqlite';
// The application every createTestApp builds (libs/testing must not import an app).
useAppFactory(createApp);
