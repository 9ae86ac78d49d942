import { GaleraNodes, nodeName, notReadyReason, parseDbHosts } from './galera-nodes';

describe('DB_HOSTS', () => {
  it('reads host:port pairs in order', () => {
    expect(parseDbHosts('db1:3306, db2:3307,10.0.0.3:3308')).toEqual([
      { host: 'db1', port: 3306 },
      { host: 'db2', port: 3307 },
      { host: '10.0.0.3', port: 3308 },
    ]);
    expect(nodeName({ host: 'db1', port: 3306 })).toBe('db1:3306');
  });
});

describe("a node's readiness", () => {
  it('is a Galera node Synced and ready, or any server that is no Galera node', () => {
    expect(notReadyReason({ wsrep_on: 'ON', wsrep_ready: 'ON', wsrep_local_state: '4' })).toBeUndefined();
    expect(notReadyReason({ wsrep_on: 'OFF', wsrep_ready: 'OFF' })).toBeUndefined();
    expect(notReadyReason({})).toBeUndefined(); // MySQL: no wsrep variables at all
  });

  it('is refused while joining, donor, desynced or not primary', () => {
    expect(notReadyReason({ wsrep_on: 'ON', wsrep_ready: 'OFF', wsrep_local_state: '1' })).toMatch(/wsrep_ready is OFF/);
    expect(notReadyReason({ wsrep_on: 'ON', wsrep_ready: 'ON', wsrep_local_state: '2' })).toMatch(/wsrep_local_state is 2/);
  });
});

describe('the node in use', () => {
  const nodes = parseDbHosts('db1:3306,db2:3306,db3:3306');
  const cluster = () => new GaleraNodes(nodes, nodes[1], {});

  it("is DB_URL's node while ready, else the first ready one, else none", () => {
    const c = cluster();
    expect(c.pick()).toEqual(nodes[1]);
    c.mark('db2:3306', 'wsrep_ready is OFF');
    expect(c.pick()).toEqual(nodes[0]);
    c.mark('db1:3306', 'no answer (ECONNREFUSED)');
    expect(c.pick()).toEqual(nodes[2]);
    c.mark('db3:3306', 'no answer (ECONNREFUSED)');
    expect(c.pick()).toBeUndefined();
    expect(c.current()).toBe('none');
    c.mark('db2:3306', undefined);
    expect(c.pick()).toEqual(nodes[1]);
  });

  it('counts a new generation whenever the ready set changes, and only then', () => {
    const c = cluster();
    const start = c.generation;
    c.mark('db1:3306', 'wsrep_ready is OFF');
    c.mark('db1:3306', 'wsrep_local_state is 1, not 4 (Synced)');
    expect(c.generation).toBe(start + 1);
    c.mark('db1:3306', undefined);
    expect(c.generation).toBe(start + 2);
  });

  it('with none ready, a new connection fails at once as refused', async () => {
    const c = cluster();
    for (const node of nodes) c.mark(node, 'no answer (ECONNREFUSED)');
    const socket = c.socket();
    await expect(new Promise((_, reject) => socket.once('error', reject))).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
