/** What a route demands of its caller. Routes without a rule are refused (deny by default). */
export type AccessRule = { kind: 'public' } | { kind: 'authenticated' } | { kind: 'permission'; permission: string };

export const ACCESS_RULE = 'access-rule';
export const ADMINISTRATOR_ROLE = 'administrator';

/** Permission actions: read, create, update, delete (each operation needs one). */
export type Action = 'read' | 'create' | 'update' | 'delete';
