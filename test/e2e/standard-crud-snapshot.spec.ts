/** The standard operations of the snapshot group (test/support/standard/). */
import { describeStandardCrud } from '../support/standard/suite';

describeStandardCrud('snapshot');
