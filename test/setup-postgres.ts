import { useAppFactory } from '@app/testing';
import { createApp } from '../apps/api/src/configure-app';

process.env.LINKDOCK_TEST_DB = 'postgres';
// The application every createTestApp builds (libs/testing must not import an app).
useAppFactory(createApp);
