import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];
type Metadata = ReturnType<Lookup>;

/**
 * class-validator resolves a class's rules on every validate() call by scanning every decorated class
 * of the process (to find its ancestors) and then groups them by property again: for a batch of 50,000
 * rows that is a fifth of the import's CPU, and it is paid on every request body. The answer depends only
 * on the registered metadata, so it is kept per class and option set until any metadata is added (which
 * happens at class load, mapped types included), after which everything is resolved afresh.
 * Installed once per metadata storage; the storage's public methods keep their contracts.
 */
export function cacheValidationMetadata(storage: Storage = getMetadataStorage()): void {
  const marked = storage as Storage & { [CACHED]?: true };
  if (marked[CACHED]) return;
  marked[CACHED] = true;

  let resolved = new WeakMap<object, Map<string, Metadata>>();
  let grouped = new WeakMap<Metadata, ReturnType<Storage['groupByPropertyName']>>();
  const forget = () => {
    resolved = new WeakMap();
    grouped = new WeakMap();
  };

  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // the options every validate() of a class without groups passes (its own key, as no other key is empty)
    const plain = schema === undefined && !always && !strictGroups && groups === undefined;
    const key = plain ? '' : `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let byOptions = resolved.get(target);
    if (!byOptions) resolved.set(target, (byOptions = new Map()));
    let found = byOptions.get(key);
    if (!found) byOptions.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };

  const group = storage.groupByPropertyName.bind(storage);
  storage.groupByPropertyName = (metadata) => {
    let found = grouped.get(metadata);
    if (!found) grouped.set(metadata, (found = group(metadata)));
    return found;
  };

  for (const method of ['addValidationMetadata', 'addValidationSchema'] as const) {
    const add = storage[method].bind(storage) as (value: never) => void;
    storage[method] = ((value: never) => {
      forget();
      add(value);
    }) as never;
  }
}

const CACHED = Symbol('validation metadata cached');
