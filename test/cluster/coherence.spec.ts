/**
 * listCache is coherent across the replicas behind the gateway: a write through one replica's port is in
 * the other's listCache at once (docs/operations.md "Scaling out"), and so through the gateway, whichever
 * upstream answers.
 */
import { call, cluster, Cluster, describeCluster, token, unique } from './cluster-support';

const P = '/main-service/system-api/configuration/data-dictionary';

describeCluster('listCache across the replicas', () => {
  let c: Cluster;
  let auth: string;
  beforeAll(() => {
    c = cluster();
    auth = token(c.jwtSecret, unique('coherence'));
  });

  const names = async (base: string, type: string): Promise<string[]> => {
    const res = await call(`${base}${P}/listCache`, { token: auth, body: { dataDictionaryTypeCode: type } });
    expect(res).toMatchObject({ http: 200, status: 200 });
    return (res.data as { name: string }[]).map((r) => r.name).sort();
  };

  it("a write through replica 1 is in replica 2's listCache at once, and the reverse", async () => {
    const type = unique('coh');
    const [one, two] = c.main;
    expect(await names(two, type)).toEqual([]);
    expect(
      await call(`${one}${P}/save`, { token: auth, body: { dataDictionaryTypeCode: type, dataDictionaryCode: 'a', name: 'Old' } }),
    ).toMatchObject({ status: 200, data: true });
    expect(await names(two, type)).toEqual(['Old']);
    const [record] = (await call(`${two}${P}/list`, { token: auth, body: { dataDictionaryTypeCode: type } })).data as {
      dataDictionaryId: string;
    }[];
    expect(
      await call(`${two}${P}/updateById`, { method: 'PUT', token: auth, body: { dataDictionaryId: record.dataDictionaryId, name: 'New' } }),
    ).toMatchObject({ status: 200, data: true });
    expect(await names(one, type)).toEqual(['New']);
  });

  it('through the gateway every read after a write sees it, whichever upstream answers', async () => {
    const type = unique('gw');
    for (let i = 0; i < 6; i++) {
      expect(
        await call(`${c.gateway}${P}/save`, {
          token: auth,
          body: { dataDictionaryTypeCode: type, dataDictionaryCode: `c${i}`, name: `N${i}` },
        }),
      ).toMatchObject({ status: 200 });
      expect(await names(c.gateway, type)).toHaveLength(i + 1);
      expect(await names(c.gateway, type)).toHaveLength(i + 1);
    }
  });

  it("an import applied by either replica's consumer is in both replicas' listCache once applied", async () => {
    const type = unique('imp');
    expect(await names(c.main[0], type)).toEqual([]);
    expect(await names(c.main[1], type)).toEqual([]);
    const res = await call(`${c.main[0]}${P}/importList`, {
      token: auth,
      body: [{ dataDictionaryTypeCode: type, dataDictionaryCode: 'i', name: 'Imported' }],
    });
    expect(res).toMatchObject({ status: 200, data: true });
    // the consumers are members of their group once cluster.sh start or restart returns; this bounds the wait
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = await call(`${c.main[1]}${P}/importStatus?batchId=${String(res.extraData?.batchId)}`, { token: auth });
      if ((status.data as { status?: string } | null)?.status === 'APPLIED') break;
      if (Date.now() > deadline) throw new Error(`import not applied: ${JSON.stringify(status.data)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await names(c.main[0], type)).toEqual(['Imported']);
    expect(await names(c.main[1], type)).toEqual(['Imported']);
  }, 90_000);
});
