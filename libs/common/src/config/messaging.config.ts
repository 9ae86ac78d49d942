import { Transform, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { Env, toList } from './environment';

/** More copies than this is a mistake, not a plan (Kafka itself allows up to the number of brokers). */
const MAX_REPLICATION_FACTOR = 7;

/** The message bus: Kafka when KAFKA_BROKERS lists brokers, else the in-process bus. */
export class MessagingConfig {
  static readonly namespace = 'messaging';

  /** Unset (or an empty list): the in-process bus. */
  @Env('KAFKA_BROKERS')
  @Transform((params) => {
    const brokers = toList(params);
    return Array.isArray(brokers) && brokers.length === 0 ? undefined : brokers;
  })
  @IsOptional()
  @IsString({ each: true })
  kafkaBrokers?: string[];
  /** Prepended to topic and consumer-group names (environments sharing a cluster). */
  @Env('KAFKA_TOPIC_PREFIX')
  @IsString()
  @Matches(/^[A-Za-z0-9._-]{0,100}$/, { message: 'may hold only letters, digits, dot, underscore and dash' })
  kafkaTopicPrefix = '';
  /**
   * Partitions of a topic the service creates. Messages are keyed by tenant, so one tenant's batches stay
   * in order on one partition while up to this many replicas consume in parallel.
   */
  @Env('KAFKA_TOPIC_PARTITIONS')
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  kafkaTopicPartitions = 6;
  /**
   * Copies of a topic the service creates; unset: three, or as many as the cluster has brokers when it has fewer
   * (messaging/topic-replication.ts). Set it in production, so that a broker down at the topic's creation cannot
   * lower it for good (creation then waits for enough brokers). An existing topic keeps its own.
   */
  @Env('KAFKA_TOPIC_REPLICATION_FACTOR')
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_REPLICATION_FACTOR)
  kafkaTopicReplicationFactor?: number;
}
