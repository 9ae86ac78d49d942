/** Attributes the services put on spans besides the instrumentations' semantic conventions. */
export const TENANT_ID = 'tenant.id';
/** The operation's `operationId` in the service's OpenAPI document (`dataDictionaryTableImportList`). */
export const OPERATION_ID = 'openapi.operation_id';
