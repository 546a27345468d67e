import '../../libs/testing/src/app-paths';
import { prepareTemplate } from '../../libs/testing/src/test-template';

// Migrates the database every medium test copies, once (shared with e2e-postgres in one run).
export default () => prepareTemplate('postgres');
