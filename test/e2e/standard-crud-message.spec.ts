/** The standard operations of the message group (test/support/standard-suite.ts). */
import { describeStandardCrud } from '../support/standard-suite';

describeStandardCrud('message');
