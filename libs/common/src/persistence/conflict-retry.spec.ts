import { retryingConflicts, WRITE_ATTEMPTS } from './conflict-retry';
import { isDuplicateKeyError, isStorageUnavailableError } from './db-errors';

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

describe('what a client is answered after a Galera refusal', () => {
  it('a node not ready (1047) and a conflict that persisted are storage unavailable (503), never a 500', () => {
    const notPrepared = Object.assign(new Error('WSREP has not yet prepared node for application use'), {
      code: 'ER_UNKNOWN_COM_ERROR',
      errno: 1047,
    });
    expect(isStorageUnavailableError(notPrepared)).toBe(true);
    expect(isStorageUnavailableError(conflict())).toBe(true);
    expect(isStorageUnavailableError(duplicate())).toBe(false);
  });
});
