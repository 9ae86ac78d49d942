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

describe('explainStartupError (unknown database)', () => {
  it('says the database does not exist and names the migrations, which create it', () => {
    const env = { DB_URL: 'mysql://svc:secret@db.example:3306/backoffice' };
    const error = Object.assign(new Error("Unknown database 'backoffice'"), { code: 'ER_BAD_DB_ERROR' });
    expect(explainStartupError(error, env)?.message).toBe(
      "Cannot use the database at DB_URL=mysql://db.example:3306/backoffice: ER_BAD_DB_ERROR (Unknown database 'backoffice'): " +
        "it does not exist; run this service's migrations (npm run migrate or npm run migrate:<service>; in Kubernetes: its migration Job)",
    );
  });
});
