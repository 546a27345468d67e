import '../libs/testing/src/app-paths';
import { repeatMissingPrerequisites } from '../libs/testing/src/prerequisites';
import { dropTemplates } from '../libs/testing/src/test-template';

export default async () => {
  repeatMissingPrerequisites();
  await dropTemplates();
};
