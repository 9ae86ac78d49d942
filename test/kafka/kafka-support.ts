import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { createConnection } from 'mysql2/promise';
import { usingMysql } from '../support/database';

/**
 * The Kafka leg: a real broker (scripts/kafka.sh) and MariaDB. Without both KAFKA_BROKERS and DB_URL
 * the suites are reported as skipped, so the plain SQLite and MariaDB legs run without a broker.
 */
export const kafkaEnabled = !!process.env.KAFKA_BROKERS && usingMysql();
export const describeKafka = kafkaEnabled ? describe : describe.skip;

/** The brokers of KAFKA_BROKERS. */
export const kafkaBrokers = (): string[] => (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);

/**
 * The failover leg: a cluster of three or more brokers from `scripts/kafka.sh start --brokers 3`, KAFKA_BROKERS listing
 * them and KAFKA_CLUSTER_SIZE its size (which the script's `kill` and `restart` read too). Skipped on a single broker.
 */
export const kafkaClusterEnabled = kafkaEnabled && Number(process.env.KAFKA_CLUSTER_SIZE) >= 3 && kafkaBrokers().length >= 3;
export const describeKafkaCluster = kafkaClusterEnabled ? describe : describe.skip;

export const ROOT = resolve(__dirname, '../..');
export const TOPIC = 'configuration.data-dictionary.import';
export const DD = '/main-service/system-api/configuration/data-dictionary';

/** Topics and consumer groups of one test file, apart from every other run on the same broker. */
export const topicPrefix = (): string => `test-${randomBytes(4).toString('hex')}.`;

/**
 * Stops or starts the project's broker (bounded: the script gives up after its own timeouts). Asynchronous: the
 * app under test runs in this process, and a blocked event loop would let its kept-alive connections time out
 * under the test's client (ECONNRESET on the next request).
 */
export async function broker(command: 'start' | 'stop'): Promise<void> {
  await promisify(execFile)('bash', [join(ROOT, 'scripts/kafka.sh'), command], { timeout: 150_000 });
}

/** Kills one node of the cluster with SIGKILL (a crash), or starts it again and waits until it serves. */
export async function clusterNode(command: 'kill' | 'restart', nodeId: number): Promise<void> {
  await promisify(execFile)('bash', [join(ROOT, 'scripts/kafka.sh'), command, String(nodeId)], { timeout: 150_000 });
}

export const client = () => new Kafka({ clientId: 'kafka-test', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING });

/**
 * An independent client, to put messages on the topic the way another producer (or a redelivery) would. Idempotent,
 * like the service's: a send retried while the new topic's leaders are being elected would otherwise write some
 * records twice. It waits for the topic (the service creates it when it subscribes) and every partition's leader first.
 */
export async function produceRaw(prefix: string, messages: { key: string; value: string }[]): Promise<void> {
  const topic = `${prefix}${TOPIC}`;
  await waitFor(`topic ${topic} with a leader on every partition`, () => hasLeaders(topic), 60_000);
  const producer = client().producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
    idempotent: true,
    maxInFlightRequests: 1,
  });
  await producer.connect();
  try {
    await producer.send({ topic, messages, acks: -1 });
  } finally {
    await producer.disconnect();
  }
}

async function hasLeaders(topic: string): Promise<boolean> {
  const admin = client().admin();
  await admin.connect();
  try {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    return topics[0].partitions.length > 0 && topics[0].partitions.every((p) => p.leader >= 0);
  } catch {
    return false; // not created yet
  } finally {
    await admin.disconnect();
  }
}

/** How many partitions the import topic under `prefix` has. */
export async function partitionsOf(prefix: string): Promise<number> {
  const admin = client().admin();
  await admin.connect();
  try {
    const { topics } = await admin.fetchTopicMetadata({ topics: [`${prefix}${TOPIC}`] });
    return topics[0].partitions.length;
  } finally {
    await admin.disconnect();
  }
}

/** Polls until `check` returns a value (not undefined/false); fails with `what` after `ms`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** `n` data dictionary rows of one type code; `value` marks which import wrote them. */
export const dictionaryRows = (type: string, n: number, value = 'v'): Record<string, unknown>[] =>
  Array.from({ length: n }, (_, i) => ({ dataDictionaryTypeCode: type, dataDictionaryCode: `c${i}`, name: `Name ${i}`, sort: i, value }));

export interface RowStats {
  rows: number;
  distinctCodes: number;
  minRevision: number;
  maxRevision: number;
  values: string[];
}

/** What the table holds for one type code, read straight from the database. */
export async function rowStats(dbUrl: string, tenantId: string, type: string): Promise<RowStats> {
  const connection = await createConnection(dbUrl.replace(/^mariadb:/, 'mysql:'));
  try {
    const [[stats]] = (await connection.query(
      `SELECT COUNT(*) AS \`rows\`, COUNT(DISTINCT data_dictionary_code) AS distinctCodes, MIN(revision) AS minRevision, MAX(revision) AS maxRevision,
         GROUP_CONCAT(DISTINCT value ORDER BY value) AS vals
       FROM configuration_data_dictionary WHERE tenant_id = ? AND data_dictionary_type_code = ? AND delete_time = 0`,
      [tenantId, type],
    )) as unknown as [Record<string, unknown>[]];
    return {
      rows: Number(stats.rows),
      distinctCodes: Number(stats.distinctCodes),
      minRevision: Number(stats.minRevision),
      maxRevision: Number(stats.maxRevision),
      values: stats.vals ? String(stats.vals).split(',') : [],
    };
  } finally {
    await connection.end();
  }
}

/** The built server (the restart test runs it as a separate process it can kill). */
export function ensureBuilt(): string {
  const main = join(ROOT, 'dist/apps/main-service/src/main.js');
  if (!existsSync(main)) execFileSync('npx', ['nest', 'build', 'main-service'], { cwd: ROOT, stdio: 'pipe', timeout: 180_000 });
  return main;
}
