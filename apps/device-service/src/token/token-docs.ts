/** OpenAPI texts shared by the two token-key calls. */
export const TOKEN_KEY_DESCRIPTION =
  'Returns `{token, expiresAt}`: an HS256 token signed with DEVICE_TOKEN_SECRET, bound to this number, its kind, its tenant, its registry record and its current provisioning secret, valid for DEVICE_TOKEN_TTL_SECONDS (default 24 h). Pass it as query parameter `token` to the other device calls. Rotating the secret (registry updateById with `secret`) or deleting the record revokes the tokens issued before, at once. A wrong number or secret gives HTTP 401 (the same for unknown numbers). Limits (HTTP 429 with Retry-After, checked before the secret), each per client address (IPv6: per /64): DEVICE_TOKEN_RATE_LIMIT calls per minute; and after DEVICE_SECRET_MAX_FAILURES failures for a number within DEVICE_SECRET_LOCKOUT_SECONDS, that address is locked out of the number, even with the right secret, until that window ends. Other addresses are not affected, so wrong secrets from a stranger never lock the device itself out; a right secret clears the failures of its own address. The counters are shared by all replicas.';
export const SECRET_DESCRIPTION = 'No token: the caller proves itself with query parameters number and `secret` (its provisioning secret).';
/** The token calls' own failure: too many calls from the address, or too many failures for the number from it. */
export const TOKEN_CALL_FAILURES = [
  {
    status: 429,
    when: 'Too many token calls from this client address, or this address is locked out of the number after failed attempts; retry after Retry-After.',
  },
];
