/**
 * What a route demands of its caller, and so what guards it. Routes without a rule are refused (deny by
 * default). `authenticated` and `permission`: a Bearer token (AccessGuard). `own-guard`: no Bearer
 * token but another credential, checked by the route's own guard, which AccessGuard requires to be there.
 * `public`: anyone.
 */
export type AccessRule =
  { kind: 'public' } | { kind: 'own-guard' } | { kind: 'authenticated' } | { kind: 'permission'; permission: string };

export const ACCESS_RULE = 'access-rule';
export const ADMINISTRATOR_ROLE = 'administrator';

/** Permission actions: read, create, update, delete (each operation needs one). */
export type Action = 'read' | 'create' | 'update' | 'delete';
