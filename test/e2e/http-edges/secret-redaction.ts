/**
 * A secret is declared once, on its field: a throw-away record declared only here (no logger, resource
 * or DTO edit anywhere else) has its secret field redacted in every logged object and body, left out of
 * the record's columns that are read, documented write-only in the derived save body, and listed as the
 * resource's write-only column.
 */
import { AppLogging, BaseRecord, defineResource, Field, saveDtoOf } from '@app/common';
import { validate } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { Entity, getMetadataArgsStorage } from 'typeorm';
import { LogCapture } from '../../support/observability';
import { startApp, TestApp } from '../../support/test-app';

// a table name, as every resource's entity has (its indexes are named after it); no app loads this entity
@Entity('test_locker')
class Locker extends BaseRecord {
  @Field.id()
  lockerId: string;

  @Field.text({ max: 64, required: true, example: 'L-17' })
  label: string;

  @Field.text({ max: 32, secret: true, example: '4711-2025' })
  pinCode?: string | null;
}

const lockerResource = defineResource({
  path: 'test-api/locker',
  tag: 'test: locker',
  permission: 'test-locker',
  title: 'Locker',
  entity: Locker,
  idField: 'lockerId',
  filters: ['label'],
  sortable: ['label'],
  defaultSort: [['createdTime', 'ASC']],
});

describe('a secret field declared on its record', () => {
  const logs = new LogCapture();
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ LOG_LEVEL: 'log' }, { logTo: logs })));
  afterAll(() => t?.close());

  it('is redacted in any object or body the service logs', () => {
    t.app
      .get(AppLogging)
      .logger.warn(
        { body: { label: 'L-17', pinCode: 'pin-in-body' }, pinCode: 'pin-at-top', req: { body: { pinCode: 'pin-in-request' } } },
        'locker probe',
      );
    const probe = logs.lines.find((l) => l.msg === 'locker probe');
    expect(probe).toMatchObject({
      body: { label: 'L-17', pinCode: '[Redacted]' },
      pinCode: '[Redacted]',
      req: { body: { pinCode: '[Redacted]' } },
    });
    for (const leaked of ['pin-in-body', 'pin-at-top', 'pin-in-request']) expect(logs.text()).not.toContain(leaked);
  });

  it('is a write-only column: never selected, listed as the resource write-only field', () => {
    const column = getMetadataArgsStorage().columns.find((c) => c.target === Locker && c.propertyName === 'pinCode');
    expect(column?.options).toMatchObject({ type: 'varchar', length: 32, nullable: true, select: false });
    expect(lockerResource.writeOnly).toEqual(['pinCode']);
  });

  it('is accepted and validated in the derived save body', async () => {
    expect(lockerResource.saveDto).toBe(saveDtoOf(Locker));
    expect(lockerResource.saveDto.name).toBe('LockerSave');
    const errors = async (body: object) => (await validate(plainToInstance(lockerResource.saveDto, body))).map((e) => e.property);
    expect(await errors({ label: 'L-17', pinCode: '4711-2025' })).toEqual([]);
    expect(await errors({ label: 'L-17', pinCode: 'x'.repeat(33) })).toEqual(['pinCode']);
  });
});
