/** What a route demands of its caller. Routes without a rule are refused (deny by default). */
export type AccessRule = { kind: 'public' } | { kind: 'authenticated' } | { kind: 'permission'; permission: string };

export const ACCESS_RULE = 'access-rule';
export const ADMINISTRATOR_ROLE = 'administrator';

/** DESIGN §7 actions, by operation. */
export type Action = 'read' | 'create' | 'update' | 'delete';
