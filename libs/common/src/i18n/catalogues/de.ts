import type { Catalogue } from './index';

/** German texts of the service's errors, keyed by their English template. */
export const de: Catalogue = {};
