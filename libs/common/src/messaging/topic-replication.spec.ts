import { topicReplication } from './topic-replication';

describe('topicReplication', () => {
  it('three copies, two in sync, on a cluster of three or more brokers', () => {
    expect(topicReplication(3)).toEqual({ replicationFactor: 3, minInSyncReplicas: 2 });
    expect(topicReplication(5)).toEqual({ replicationFactor: 3, minInSyncReplicas: 2 });
  });

  it('as many copies as brokers on a smaller cluster, so one broker down does not stop the writes', () => {
    expect(topicReplication(1)).toEqual({ replicationFactor: 1, minInSyncReplicas: 1 });
    expect(topicReplication(2)).toEqual({ replicationFactor: 2, minInSyncReplicas: 1 });
  });

  it('the configured factor whatever the brokers answering now (a broker down at creation does not lower it for good)', () => {
    expect(topicReplication(2, 3)).toEqual({ replicationFactor: 3, minInSyncReplicas: 2 });
    expect(topicReplication(5, 5)).toEqual({ replicationFactor: 5, minInSyncReplicas: 2 });
    expect(topicReplication(3, 1)).toEqual({ replicationFactor: 1, minInSyncReplicas: 1 });
  });
});
