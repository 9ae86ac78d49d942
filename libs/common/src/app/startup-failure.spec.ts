import { explainStartupError } from './startup-failure';

describe('explainStartupError (database)', () => {
  it('names DB_URL without its user and password, and blanks the password in the driver message', () => {
    const env = { DB_URL: 'mysql://svc-user:P@ss-X@db.example:3306/backoffice' };
    const error = Object.assign(new Error("Access denied for user 'svc-user' (password 'P@ss-X' refused)"), {
      code: 'ER_ACCESS_DENIED_ERROR',
    });
    const failure = explainStartupError(error, env);
    expect(failure?.message).toBe(
      "Cannot use the database at DB_URL=mysql://db.example:3306/backoffice: ER_ACCESS_DENIED_ERROR (Access denied for user 'svc-user' (password '***' refused))",
    );
    expect(failure?.message).not.toContain('ss-X');
  });
});
