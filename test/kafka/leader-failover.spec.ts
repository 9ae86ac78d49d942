/**
 * data-dictionary/importList on a three-broker Kafka cluster (docs/deploying.md "A Kafka cluster"): the import
 * topic is created with three copies and min.insync.replicas 2; imports keep coming while the leader of its
 * partition is killed with SIGKILL and later restarted, and every acknowledged import is applied exactly once
 * (its rows there once, revision 1), none lost. Runs only on a cluster: KAFKA_BROKERS listing three brokers,
 * KAFKA_CLUSTER_SIZE=3 and DB_URL (the kafka-cluster leg of .ci/run); skipped elsewhere.
 */
import { Admin, ConfigResourceTypes } from 'kafkajs';
import { createConnection } from 'mysql2/promise';
import { startApp, TestApp } from '../support/test-app';
import { client, clusterNode, DD, describeKafkaCluster, dictionaryRows, TOPIC, topicPrefix, waitFor } from './kafka-support';

jest.setTimeout(180_000);

/** Rows per import: small, so that many batches are in flight around the kill. */
const ROWS = 20;
/** Pause between two imports of the stream. */
const IMPORT_PAUSE_MS = 150;

interface Acknowledged {
  batchId: string;
  code: string;
  at: number;
}

describeKafkaCluster('imports while the leader of the import topic is killed and restarted', () => {
  const prefix = topicPrefix();
  const topic = `${prefix}${TOPIC}`;
  const tenantId = `failover${Date.now().toString(36)}`;
  let t: TestApp;
  let admin: Admin;
  let killed: number | undefined;

  /** SQL on the suite's own database (the app's data source), bypassing the API. */
  const query = async <R>(sql: string, params: unknown[]): Promise<R[]> => {
    const url = (t.dataSource.options as { url: string }).url.replace(/^mariadb:/, 'mysql:');
    const connection = await createConnection(url);
    try {
      return (await connection.query(sql, params))[0] as R[];
    } finally {
      await connection.end();
    }
  };
  const partition = async () => (await admin.fetchTopicMetadata({ topics: [topic] })).topics[0].partitions[0];
  /** How many of the tenant's batches acknowledged after `since` are applied. */
  const appliedSince = async (since: number) =>
    Number(
      (
        await query<{ n: number }>(
          `SELECT COUNT(*) AS n FROM import_batch WHERE tenant_id = ? AND status = 'APPLIED' AND created_time > ?`,
          [tenantId, since],
        )
      )[0].n,
    );

  beforeAll(async () => {
    // one partition: one leader to kill, and every batch of the stream behind it
    t = await startApp({ KAFKA_TOPIC_PREFIX: prefix, KAFKA_TOPIC_PARTITIONS: '1' });
    admin = client().admin();
    await admin.connect();
    // every broker up before the topic is created: its copies follow the brokers the cluster has then
    await waitFor('three brokers in the cluster', async () => (await admin.describeCluster()).brokers.length >= 3 || undefined, 60_000);
  });
  afterAll(async () => {
    // the cluster whole again for whatever runs next
    if (killed !== undefined) await clusterNode('restart', killed).catch(() => undefined);
    await admin?.disconnect();
    await t?.close();
  });

  it('creates the import topic with three copies, all in sync, and min.insync.replicas 2', async () => {
    const res = await t.post(`${DD}/importList`, dictionaryRows(`${tenantId}first`, 1), { tenantId });
    expect(res).toMatchObject({ httpStatus: 200, data: true });
    await waitFor('the first batch to be applied', async () => (await appliedSince(0)) === 1, 60_000);

    const { replicas, isr } = await partition();
    expect({ replicas: replicas.length, isr: isr.length }).toEqual({ replicas: 3, isr: 3 });
    const { resources } = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['min.insync.replicas'] }],
    });
    expect(resources[0].configEntries).toEqual([expect.objectContaining({ configName: 'min.insync.replicas', configValue: '2' })]);
  });

  it('applies every acknowledged import exactly once while the partition leader is killed and restarted', async () => {
    const acknowledged: Acknowledged[] = [];
    const refused: string[] = [];
    let importing = true;
    // the stream: one import after another until told to stop; the API answers from the outbox, so the broker's
    // state never refuses one
    const stream = (async () => {
      for (let i = 0; importing; i++) {
        const code = `${tenantId}n${i}`;
        const res = await t.post(`${DD}/importList`, dictionaryRows(code, ROWS, code), { tenantId });
        if (res.httpStatus === 200 && res.data === true)
          acknowledged.push({ batchId: String(res.extraData.batchId), code, at: Date.now() });
        else refused.push(`${res.httpStatus} ${res.error}`);
        await new Promise((resolve) => setTimeout(resolve, IMPORT_PAUSE_MS));
      }
    })();
    try {
      await waitFor('the stream to be applied before the kill', async () => (await appliedSince(0)) >= 6, 60_000);

      const leader = (await partition()).leader;
      await clusterNode('kill', leader);
      killed = leader;
      const killedAt = Date.now();
      // the controller fences the dead broker once its session expires and elects a leader among the others
      const elected = await waitFor(
        'a new leader without the killed broker',
        async () => {
          const p = await partition().catch(() => undefined);
          return p && p.leader >= 0 && p.leader !== leader && !p.isr.includes(leader) ? p : undefined;
        },
        60_000,
      );
      expect(elected.isr).toHaveLength(2);
      // two copies in sync are enough for acks=all under min.insync.replicas 2: imports after the kill get through
      await waitFor('an import acknowledged after the kill to be applied', async () => (await appliedSince(killedAt)) >= 3, 60_000);

      await clusterNode('restart', leader);
      killed = undefined;
      const restartedAt = Date.now();
      await waitFor(
        'the restarted broker back in sync',
        async () => (await partition().catch(() => undefined))?.isr.length === 3 || undefined,
        60_000,
      );
      await waitFor('an import acknowledged after the restart to be applied', async () => (await appliedSince(restartedAt)) >= 3, 60_000);
    } finally {
      importing = false;
      await stream;
    }

    expect(refused).toEqual([]);
    const codes = acknowledged.map((a) => a.code);
    await waitFor('every acknowledged import to be applied', async () => (await appliedSince(0)) === acknowledged.length + 1, 60_000);

    // each acknowledged batch APPLIED with all its rows, and no batch but those (and the first test's)
    const batches = await query<{ batch_id: string; status: string; applied_count: number }>(
      'SELECT batch_id, status, applied_count FROM import_batch WHERE tenant_id = ?',
      [tenantId],
    );
    const byId = new Map(batches.map((b) => [b.batch_id, b]));
    expect(batches).toHaveLength(acknowledged.length + 1);
    for (const { batchId } of acknowledged) expect(byId.get(batchId)).toMatchObject({ status: 'APPLIED', applied_count: ROWS });

    // every row there once, written once (revision 1: a second application would have updated it), with its own batch's value
    const rows = await query<{ code: string; n: number; distinctCodes: number; minRevision: number; maxRevision: number; vals: string }>(
      `SELECT data_dictionary_type_code AS code, COUNT(*) AS n, COUNT(DISTINCT data_dictionary_code) AS distinctCodes,
         MIN(revision) AS minRevision, MAX(revision) AS maxRevision, GROUP_CONCAT(DISTINCT value) AS vals
       FROM configuration_data_dictionary WHERE tenant_id = ? AND delete_time = 0 GROUP BY data_dictionary_type_code`,
      [tenantId],
    );
    const perCode = new Map(rows.map((r) => [r.code, r]));
    expect(rows).toHaveLength(codes.length + 1);
    const wrong = codes
      .map((code) => ({ code, row: perCode.get(code) }))
      .filter(
        ({ code, row }) =>
          !row ||
          Number(row.n) !== ROWS ||
          Number(row.distinctCodes) !== ROWS ||
          Number(row.minRevision) !== 1 ||
          Number(row.maxRevision) !== 1 ||
          row.vals !== code,
      );
    expect(wrong).toEqual([]);
    // the outbox has handed everything over
    expect(await query('SELECT seq FROM outbox_message WHERE status = ?', ['PENDING'])).toEqual([]);
    // enough imports went through around the kill to mean something
    expect(acknowledged.length).toBeGreaterThanOrEqual(15);
  });
});
