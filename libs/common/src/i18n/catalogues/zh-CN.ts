import type { Catalogue } from './index';

/** Simplified Chinese texts of the service's errors, keyed by their English template. */
export const zhCN: Catalogue = {};
