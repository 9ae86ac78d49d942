import { AsyncLocalStorage } from 'node:async_hooks';
import { TestEnvironment } from 'jest-environment-node';

/**
 * Jest's Node environment, which also disables the async local storages a test file enabled once the file is done.
 *
 * A worker runs many test files in one process, each with its own copies of the modules; the storages their
 * module copies create (the request context's, Jest's own) stay enabled after the file, and on
 * Node 20 every enabled storage does work on every promise and callback the process creates from then on. Late
 * in a worker's run that took a tenth of the suite's CPU time. A storage disabled here comes back on its next
 * `run` or `enterWith`, so disabling one that outlives its file is harmless.
 */
type Storage = AsyncLocalStorage<unknown>;

/** Where the storages enabled since the last teardown are noted: on Node's class, once per worker process. */
const NOTED = Symbol.for('back-office.test.enabled-async-local-storages');

function enabledStorages(): Set<Storage> {
  const prototype = AsyncLocalStorage.prototype as Storage & { [NOTED]?: Set<Storage> };
  let noted = prototype[NOTED];
  if (!noted) {
    const enabled = (noted = new Set<Storage>());
    const { run, enterWith } = prototype;
    Object.assign(prototype, {
      [NOTED]: enabled,
      run(this: Storage, ...args: Parameters<Storage['run']>) {
        enabled.add(this);
        return run.apply(this, args);
      },
      enterWith(this: Storage, store: unknown) {
        enabled.add(this);
        return enterWith.call(this, store);
      },
    });
  }
  return noted;
}

export default class TestFileEnvironment extends TestEnvironment {
  private readonly enabled = enabledStorages();

  override async teardown(): Promise<void> {
    for (const storage of this.enabled) storage.disable();
    this.enabled.clear();
    await super.teardown();
  }
}
