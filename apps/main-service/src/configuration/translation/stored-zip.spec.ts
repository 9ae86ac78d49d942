import { inflateEntries } from './bounded-zip';
import { storedZip } from './stored-zip';

describe('storedZip', () => {
  const bounds = { maxEntries: 10, maxEntryBytes: 1 << 20, maxTotalBytes: 1 << 20 };

  it('is a zip the bounded reader reads back part for part, in order, names in UTF-8', async () => {
    const parts: [string, Buffer][] = [
      ['xl/_rels/workbook.xml.rels', Buffer.from('<Relationships/>')],
      ['xl/workbook.xml', Buffer.from('<workbook/>')],
      ['xl/empty.xml', Buffer.alloc(0)],
      ['xl/größe.bin', Buffer.from([0, 1, 2, 255])],
    ];
    const read = await inflateEntries(storedZip(parts), () => true, bounds);
    expect([...read.keys()]).toEqual(parts.map(([path]) => path));
    for (const [path, data] of parts) expect(read.get(path)).toEqual(data);
  });

  it('stores the parts as they are (no compression)', () => {
    const data = Buffer.alloc(10_000, 'a');
    expect(storedZip([['a.txt', data]]).length).toBeGreaterThan(data.length);
  });
});
