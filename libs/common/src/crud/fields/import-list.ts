/**
 * How a resource's `importList` applies its rows: `'sync'` upserts them in one transaction before
 * answering; `{ async: { topic } }` stores the batch in the outbox, which publishes it to that topic for
 * a consumer to apply. The topic is part of the option, so an asynchronous import cannot lack one.
 */
export type ImportListOption = 'sync' | { async: { topic: string } };

/** The topic of an asynchronous importList; undefined for a synchronous one or none. */
export function asyncImportTopic(r: { importList?: ImportListOption }): string | undefined {
  return typeof r.importList === 'object' ? r.importList.async.topic : undefined;
}
