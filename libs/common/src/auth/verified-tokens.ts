import { decode } from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import { Principal } from '../tenancy/request-context';

/** How long a verified token is taken on trust without verifying it again (a JWKS key withdrawn stops working after this). */
export const VERIFIED_TOKEN_TTL_MS = 60_000;
/** Tokens remembered at most; the least recently presented is forgotten first. */
export const VERIFIED_TOKENS_MAX = 10_000;

/**
 * Bearer tokens that passed verification, by their exact text, with the principal they named. A token is
 * verified once and then recognised until the earlier of its own expiry and VERIFIED_TOKEN_TTL_MS later:
 * a client sends the same token on every call, and checking it again each time cost about a tenth of a
 * light request. Only verified tokens enter, so a forged or altered token (any other text) is verified
 * in full every time; an expired entry is dropped and its token verified (and refused) again.
 */
export class VerifiedTokens {
  private readonly entries: LRUCache<string, { principal: Principal; until: number }>;

  constructor(
    max = VERIFIED_TOKENS_MAX,
    private readonly ttlMs = VERIFIED_TOKEN_TTL_MS,
  ) {
    this.entries = new LRUCache({ max });
  }

  principal(token: string): Principal | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    if (Date.now() < hit.until) return hit.principal;
    this.entries.delete(token);
    return undefined;
  }

  /** Remembers a token that was just verified and named `principal` (a token without a numeric `exp` is not remembered). */
  remember(token: string, principal: Principal): void {
    const exp = (decode(token, { json: true }) ?? {}).exp;
    if (typeof exp !== 'number') return;
    // shared by every request that presents the token: nobody may change it
    Object.freeze(principal.roles);
    Object.freeze(principal.permissions);
    this.entries.set(token, { principal: Object.freeze(principal), until: Math.min(exp * 1000, Date.now() + this.ttlMs) });
  }
}
