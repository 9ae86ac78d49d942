import { ExtractJwt } from 'passport-jwt';

/**
 * The Bearer token of a request's Authorization header as passport-jwt reads it (the scheme in any case), or null:
 * the one reading of it, for the strategy that verifies it, the guard that remembers it and admission that looks
 * its tenant up.
 */
export const bearerToken = ExtractJwt.fromAuthHeaderAsBearerToken();
