/** How a topic the service creates is replicated: its copies and how many must have a write before it is acknowledged. */
export interface TopicReplication {
  replicationFactor: number;
  /** `min.insync.replicas`: with the producer's acks=all, a write needs this many copies, else it is refused (and retried). */
  minInSyncReplicas: number;
}

/** Copies of a topic when KAFKA_TOPIC_REPLICATION_FACTOR does not say: three, the usual production choice. */
export const DEFAULT_REPLICATION_FACTOR = 3;

/**
 * The replication of a new topic: `configured` (KAFKA_TOPIC_REPLICATION_FACTOR) or else three copies, fewer
 * on a cluster of fewer brokers (one on a single development broker, where more could never be placed).
 * `min.insync.replicas` is one less than the copies, at most 2: a write survives the loss of any one broker
 * once acknowledged, and one broker down (a crash, a rolling restart) does not stop the writes.
 */
export function topicReplication(brokers: number, configured?: number): TopicReplication {
  const replicationFactor = configured ?? Math.max(1, Math.min(DEFAULT_REPLICATION_FACTOR, brokers));
  return { replicationFactor, minInSyncReplicas: Math.max(1, Math.min(2, replicationFactor - 1)) };
}
