/** Each way jsonwebtoken refuses a Bearer token maps to a 401 that says which, without the token. */
import { sign, verify } from 'jsonwebtoken';
import { refusalOf } from './token-refusal';

const SECRET = 'a-secret-of-at-least-16-chars';
const now = () => Math.floor(Date.now() / 1000);

function failureOf(token: string, options: { issuer?: string; audience?: string; algorithms?: ['HS256'] | ['RS256'] } = {}): unknown {
  try {
    verify(token, SECRET, { algorithms: ['HS256'], ...options });
  } catch (error) {
    return error;
  }
  throw new Error('verified');
}

describe('refusalOf', () => {
  const good = { sub: 'alice', tenantId: 'acme' };

  it.each<[string, () => unknown, string]>([
    ['expired', () => failureOf(sign({ ...good, exp: now() - 10 }, SECRET)), 'Unauthorized: the token has expired'],
    ['not yet valid', () => failureOf(sign({ ...good, nbf: now() + 600 }, SECRET)), 'Unauthorized: the token is not valid yet (nbf)'],
    [
      'signed with another key',
      () => failureOf(sign(good, 'another-secret-of-16-chars')),
      "Unauthorized: the token's signature is invalid",
    ],
    ['not a JWT', () => failureOf('abc.def'), 'Unauthorized: the Bearer token is not a well-formed JWT'],
    [
      'of another algorithm',
      () => failureOf(sign(good, SECRET), { algorithms: ['RS256'] }),
      "Unauthorized: the token's signing algorithm is not accepted",
    ],
    [
      'of another issuer',
      () => failureOf(sign({ ...good, iss: 'evil' }, SECRET), { issuer: 'idp' }),
      "Unauthorized: the token's issuer (iss) is not accepted",
    ],
    [
      'for another audience',
      () => failureOf(sign({ ...good, aud: 'x' }, SECRET), { audience: 'back-office' }),
      "Unauthorized: the token's audience (aud) is not accepted",
    ],
    [
      'with a malformed exp',
      () => failureOf(sign(JSON.stringify({ ...good, exp: 'soon' }), SECRET)), // jsonwebtoken signs a string payload as it is
      "Unauthorized: the token's claim exp is missing or invalid",
    ],
    ['for a reason it does not know', () => new Error('something else'), 'Unauthorized: the token could not be verified'],
  ])('a token %s', (_name, failure, text) => {
    const refusal = refusalOf(failure());
    expect({ status: refusal.getStatus(), text: refusal.message }).toEqual({ status: 401, text });
  });

  it('never repeats what jsonwebtoken knows of the configuration (expected issuer, audience)', () => {
    const refusal = refusalOf(failureOf(sign({ ...good, iss: 'evil' }, SECRET), { issuer: 'https://idp.internal' }));
    expect(refusal.message).not.toContain('idp.internal');
  });
});
