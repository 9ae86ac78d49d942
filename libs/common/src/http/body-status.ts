/** Body `status` codes of contract.md "The envelope" that are not plain HTTP statuses. */
export const BodyStatus = {
  OK: 200,
  VALIDATION: 400,
  STALE_REVISION: 409,
  DUPLICATE: 422,
  MISSING_PARAMETER: 1002,
  TYPE_MISMATCH: 1003,
  MALFORMED_JSON: 1004,
} as const;
