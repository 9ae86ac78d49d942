/** Types of build-if-stale.js for the TypeScript that requires it (the tests that start the built services). */
export declare function isStale(): boolean;
export declare function buildIfStale(options?: { quiet?: boolean }): boolean;
/** The entry files whose age tells whether dist is current (absolute paths). */
export declare const BUILT: readonly string[];
