/**
 * Keyset batches (keyset-batches.ts) read every row once, in the order, whatever the batch size: with ties broken by
 * the identifier, NULLs in a key (first ascending, last descending, on both engines), mixed directions, a boolean key.
 * On SQLite, and on MySQL/MariaDB with DB_URL set.
 */
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { createTestDatabase, fixtureDataSource, TestDatabase } from '../../../../../test/support/database';
import type { SortOrder } from '../tables/page-window';
import { keysetBatches } from './keyset-batches';
import { csvField } from './row-files';
import { exportFileName, exportFormatOf } from './export-format';

@Entity('keyset_fixture')
class KeysetFixture {
  @PrimaryColumn({ type: 'varchar', length: 16 })
  id: string;

  @Column({ type: 'int', nullable: true })
  rank: number | null;

  @Column({ type: 'boolean' })
  flag: boolean;
}

describe('keysetBatches', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  const ROWS = 23;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await fixtureDataSource(database, [KeysetFixture]);
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      id: `r${String(i).padStart(2, '0')}`,
      rank: i % 4 === 0 ? null : i % 3, // ties and NULLs
      flag: i % 2 === 0,
    }));
    await dataSource.getRepository(KeysetFixture).insert(rows);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const orders: SortOrder[] = [
    { rank: 'ASC', id: 'ASC' },
    { rank: 'DESC', id: 'DESC' },
    { rank: 'DESC', flag: 'ASC', id: 'ASC' },
    { flag: 'DESC', rank: 'ASC', id: 'DESC' },
  ];
  it.each(orders)('in order %j, batch by batch as in one statement', async (order) => {
    const repository = dataSource.getRepository(KeysetFixture);
    const metadata = dataSource.getMetadata(KeysetFixture);
    const query = () => repository.createQueryBuilder('r');
    const whole = query();
    Object.entries(order).forEach(([field, direction], i) => whole[i ? 'addOrderBy' : 'orderBy'](`r.${field}`, direction));
    const expected = (await whole.getMany()).map((row) => row.id);
    for (const batchSize of [1, 2, 5, ROWS, ROWS + 1]) {
      const read: string[] = [];
      for await (const batch of keysetBatches(query, 'r', metadata.columns, order, batchSize, dataSource.manager)) {
        expect(batch.length).toBeLessThanOrEqual(batchSize);
        read.push(...batch.map((row) => row.id as string));
      }
      expect({ batchSize, read }).toEqual({ batchSize, read: expected });
    }
  });
});

describe('export formats', () => {
  it('Accept chooses the format by q-value, CSV by default', () => {
    expect(exportFormatOf(undefined).name).toBe('csv');
    expect(exportFormatOf('*/*').name).toBe('csv');
    expect(exportFormatOf('application/json, text/plain, */*').name).toBe('csv');
    expect(exportFormatOf('application/x-ndjson').name).toBe('ndjson');
    expect(exportFormatOf('text/csv;q=0.5, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').name).toBe('xlsx');
    expect(exportFormatOf('application/x-ndjson;q=0, text/csv').name).toBe('csv');
  });

  it('names the file by resource and UTC time', () => {
    expect(exportFileName('translation', exportFormatOf('application/x-ndjson'), new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe(
      'translation-20260102-030405.ndjson',
    );
  });

  it('writes CSV fields per RFC 4180, text a spreadsheet would run with a leading quote, numbers as they are', () => {
    expect(['=1+1', '+1', '-1', '@x', '\tx', '\rx'].map(csvField)).toEqual(["'=1+1", "'+1", "'-1", "'@x", "'\tx", '"\'\rx"']);
    expect([-1, 0, true, null, undefined, ['a', 'b'], 'a,b', 'say "hi"', 'two\nlines'].map(csvField)).toEqual([
      '-1',
      '0',
      'true',
      '',
      '',
      '"[""a"",""b""]"',
      '"a,b"',
      '"say ""hi"""',
      '"two\nlines"',
    ]);
  });
});
