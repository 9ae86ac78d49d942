/** The standard operations of the snapshot group (test/support/standard-suite.ts). */
import { describeStandardCrud } from '../support/standard-suite';

describeStandardCrud('snapshot');
