/**
 * What a failed request leaves for the operator (docs/operations.md "Logs", "Metrics"): the line of a validation
 * refusal names the failing properties and the rules they broke, never the values sent; other refusals carry
 * their body status; an unexpected failure (500) has an error id, in its envelope and in its log lines, and its
 * stack in the log only. Swagger UI's static files count under one route in /metrics, not as unmatched.
 */
import { CONFIG, startApp, TestApp } from '../../support/test-app';
import { LogCapture, metricValue } from '../../support/observability';
import { bearer } from '../../support/tokens';

const DDT = `${CONFIG}/data-dictionary-type`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const STACK_FRAME = /\n\s+at /;

describe('the line of a refused request', () => {
  const logs = new LogCapture();
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ LOG_LEVEL: 'warn' }, { logTo: logs })));
  afterAll(() => t?.close());

  const post = (path: string, requestId: string, body: unknown) =>
    t
      .http()
      .post(path)
      .set('Authorization', bearer())
      .set('X-Request-Id', requestId)
      .send(body as object);

  it('names each failing property and the rule it broke, never the value sent', async () => {
    const sent = 'sent-value-never-logged-';
    const res = await post(`${DDT}/save`, 'refused-props-1', { dataDictionaryTypeCode: sent.repeat(4), name: [sent], sort: 1 });
    expect([res.status, res.body.status]).toEqual([200, 1003]);
    const line = logs.requestLine('refused-props-1');
    expect(line).toMatchObject({ level: 40, msg: 'request refused', bodyStatus: 1003 });
    expect(line!.refused).toEqual(
      expect.arrayContaining([
        { property: 'dataDictionaryTypeCode', rule: 'maxLength' },
        { property: 'name', rule: 'isString' },
      ]),
    );
    expect(logs.text()).not.toContain(sent);
  });

  it('names a missing property `required`', async () => {
    const res = await post(`${DDT}/save`, 'refused-missing-1', { name: 'Name' });
    expect([res.status, res.body.status]).toEqual([200, 400]);
    expect(logs.requestLine('refused-missing-1')!.refused).toEqual([{ property: 'dataDictionaryTypeCode', rule: 'required' }]);
  });

  it('names the rows of a batch by index, at most 20 of them, and counts the others', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ dataDictionaryTypeCode: `refused-batch-${i}`, name: `Row ${i}` }));
    for (let i = 3; i < 28; i++) rows[i].dataDictionaryTypeCode = '';
    const res = await post(`${DDT}/importList`, 'refused-batch-1', rows);
    expect([res.status, res.body.status]).toEqual([200, 400]);
    const line = logs.requestLine('refused-batch-1')!;
    expect(line.refused).toHaveLength(20);
    expect(line.refused[0]).toEqual({ property: '[3].dataDictionaryTypeCode', rule: 'isNotEmpty' });
    expect(line.refusedOmitted).toBe(5);
  });

  it.each([
    ['no token (401)', () => t.http().post(`${DDT}/count`).send({}), 401, 401],
    [
      'a missing permission (403)',
      () =>
        t
          .http()
          .post(`${DDT}/count`)
          .set('Authorization', bearer({ roles: [] }))
          .send({}),
      403,
      403,
    ],
    ['an unknown route (404)', () => t.http().get(`${CONFIG}/no-such-resource/page`), 404, 404],
    [
      'malformed JSON (1004)',
      () => t.http().post(`${DDT}/count`).set('Authorization', bearer()).set('Content-Type', 'application/json').send('{"a":'),
      200,
      1004,
    ],
  ])('carries the body status of %s, without properties', async (_name, send, http, status) => {
    const id = `refused-${status}-1`;
    const res = await send().set('X-Request-Id', id);
    expect([res.status, res.body.status]).toEqual([http, status]);
    const line = logs.requestLine(id)!;
    expect(line).toMatchObject({ level: 40, msg: 'request refused', status: http, bodyStatus: status });
    expect(line).not.toHaveProperty('refused');
  });

  it("says on the line of a token refused for its signature that it must be signed with the service's JWT_SECRET, not in the answer", async () => {
    const res = await t
      .http()
      .post(`${DDT}/count`)
      .set('Authorization', bearer({}, { secret: 'another-secret-than-the-service-has' }))
      .set('X-Request-Id', 'refused-signature-1')
      .send({});
    expect([res.status, res.body.error]).toEqual([401, "Unauthorized: the token's signature is invalid"]);
    expect(res.text).not.toContain('JWT_SECRET');
    const line = logs.requestLine('refused-signature-1')!;
    expect(line).toMatchObject({ level: 40, msg: 'request refused', status: 401, bodyStatus: 401 });
    expect(line.hint).toContain("the token must be signed with this service's JWT_SECRET");
    expect(logs.requestLine('refused-401-1')).not.toHaveProperty('hint');
  });

  it('counts Swagger UI files under `{prefix}/swagger-ui/*`, in any case, adding no unmatched series', async () => {
    const assets = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'];
    const route = '/main-service/swagger-ui/*';
    const before = (await t.http().get('/main-service/metrics')).text;
    for (const asset of assets) expect((await t.http().get(`/main-service/swagger-ui/${asset}`)).status).toBe(200);
    expect((await t.http().get('/main-service/SWAGGER-UI/swagger-ui.css')).status).toBe(200);
    const after = (await t.http().get('/main-service/metrics')).text;
    const served = (text: string) => metricValue(text, 'http_requests_total', { method: 'GET', route, status: '200' });
    expect(served(after) - served(before)).toBe(assets.length + 1);
    const unmatched = (text: string) => text.split('\n').filter((line) => line.includes('route="unmatched"'));
    expect(unmatched(after)).toEqual(unmatched(before));
    const routes = new Set([...after.matchAll(/route="([^"]*)"/g)].map((m) => m[1]));
    expect([...routes].filter((r) => r.toLowerCase().includes('swagger-ui/'))).toEqual([route]);
  });

  it('leaves a file Swagger UI does not have unmatched (404)', async () => {
    const res = await t.http().get('/main-service/swagger-ui/no-such-file.js').set('X-Request-Id', 'swagger-missing-1');
    expect(res.status).toBe(404);
    expect(logs.requestLine('swagger-missing-1')).toMatchObject({ route: 'unmatched', status: 404 });
  });
});

describe('an unexpected failure (500)', () => {
  const logs = new LogCapture();
  let t: TestApp;
  // its own app: the failure is real, a table the service reads is gone
  beforeAll(async () => {
    t = await startApp({ LOG_LEVEL: 'warn' }, { logTo: logs });
    await t.dataSource.query('DROP TABLE configuration_data_dictionary_type');
  });
  afterAll(() => t?.close());

  it('answers with an error id in extraData, no internals; the fault line has the id and the stack, the request line the id', async () => {
    const res = await t.http().post(`${DDT}/count`).set('Authorization', bearer()).set('X-Request-Id', 'fault-500-1').send({});
    expect([res.status, res.body.status]).toEqual([500, 500]);
    expect(res.body).toMatchObject({ error: 'Internal server error', path: `${DDT}/count`, data: null });
    expect(Object.keys(res.body.extraData)).toEqual(['errorId']);
    const { errorId } = res.body.extraData;
    expect(errorId).toMatch(UUID);
    expect(res.text).not.toMatch(STACK_FRAME);
    expect(res.text).not.toMatch(/configuration_data_dictionary_type|QueryFailedError|SQLITE_|ER_NO_SUCH/);

    const fault = logs.lines.find((line) => line.context === 'Exceptions' && line.requestId === 'fault-500-1');
    expect(fault).toMatchObject({ level: 50, errorId, tenantId: 'tenant-a', user: 'alice', error: { name: 'QueryFailedError' } });
    expect(fault!.error.message).toMatch(/configuration_data_dictionary_type/);
    expect(fault!.error.stack).toMatch(STACK_FRAME);
    const line = logs.requestLine('fault-500-1');
    expect(line).toMatchObject({ level: 50, msg: 'request failed', status: 500, bodyStatus: 500, errorId });
    expect(JSON.stringify(line)).not.toMatch(STACK_FRAME);
  });

  it('gives each failure an id of its own', async () => {
    const ids = [];
    for (let i = 0; i < 2; i++)
      ids.push((await t.http().post(`${DDT}/count`).set('Authorization', bearer()).send({})).body.extraData.errorId);
    expect(new Set(ids).size).toBe(2);
  });
});
