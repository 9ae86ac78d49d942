/** OpenAPI texts shared by the two token-key calls. */
export const TOKEN_KEY_DESCRIPTION =
  'Returns `{token, expiresAt}`: an HS256 token signed with DEVICE_TOKEN_SECRET, bound to this number, its kind and its tenant, valid for DEVICE_TOKEN_TTL_SECONDS (default 24 h). Pass it as query parameter `token` to the other device calls. A wrong number or secret gives HTTP 401 (the same for unknown numbers); after DEVICE_SECRET_MAX_FAILURES failures within DEVICE_SECRET_LOCKOUT_SECONDS the number is locked (HTTP 429 with Retry-After, even with the right secret) until that window ends.';
export const SECRET_DESCRIPTION = 'No token: the caller proves itself with query parameters number and `secret` (its provisioning secret).';
