import { repeatMissingPrerequisites } from '../libs/testing/src/prerequisites';

export default () => repeatMissingPrerequisites();
