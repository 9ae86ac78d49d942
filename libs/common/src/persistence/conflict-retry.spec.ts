import { retryingConflicts, WRITE_ATTEMPTS } from './conflict-retry';
import { isDuplicateKeyError } from './db-errors';

/** An error as mysql2 throws it for a deadlock's victim or a Galera certification failure. */
const conflict = () =>
  Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), { code: 'ER_LOCK_DEADLOCK', errno: 1213 });
const duplicate = () => Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY', errno: 1062 });

function failing(times: number, error: () => Error) {
  let runs = 0;
  const write = jest.fn(async () => {
    if (++runs <= times) throw error();
    return 'written';
  });
  return write;
}

describe('retryingConflicts', () => {
  it('runs a write that lost a race again until it succeeds', async () => {
    const write = failing(WRITE_ATTEMPTS - 1, conflict);
    await expect(retryingConflicts(write)).resolves.toBe('written');
    expect(write).toHaveBeenCalledTimes(WRITE_ATTEMPTS);
  });

  it('gives up after WRITE_ATTEMPTS runs with the conflict itself', async () => {
    const write = failing(WRITE_ATTEMPTS, conflict);
    await expect(retryingConflicts(write)).rejects.toMatchObject({ code: 'ER_LOCK_DEADLOCK' });
    expect(write).toHaveBeenCalledTimes(WRITE_ATTEMPTS);
  });

  it('never runs again after an error that is not a lost race', async () => {
    const write = failing(1, duplicate);
    await expect(retryingConflicts(write)).rejects.toMatchObject({ code: 'ER_DUP_ENTRY' });
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('runs again after the further errors the caller names', async () => {
    const write = failing(2, duplicate);
    await expect(retryingConflicts(write, isDuplicateKeyError)).resolves.toBe('written');
    expect(write).toHaveBeenCalledTimes(3);
  });
});
