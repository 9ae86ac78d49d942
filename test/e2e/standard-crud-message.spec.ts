/** The standard operations of the message group (test/support/standard/). */
import { describeStandardCrud } from '../support/standard/suite';

describeStandardCrud('message');
