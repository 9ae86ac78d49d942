import { crc32 } from 'node:zlib';

/** Local file header, central directory header, end of central directory (PKWARE APPNOTE 4.3.7, 4.3.12, 4.3.16). */
const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
/** Version 2.0 (the lowest that has folders and deflate), the name in UTF-8, stored (no compression), 1980-01-01 00:00. */
const VERSION = 20;
const UTF8_NAME = 0x0800;
const STORED = 0;
const DOS_DATE = 0x21;

/** The fields both headers of a part have, from `version needed` to the name's length, written from `at`. */
function writeEntryFields(header: Buffer, at: number, crc: number, size: number, nameLength: number): void {
  header.writeUInt16LE(VERSION, at);
  header.writeUInt16LE(UTF8_NAME, at + 2);
  header.writeUInt16LE(STORED, at + 4);
  header.writeUInt16LE(DOS_DATE, at + 8); // the time before it stays 00:00
  header.writeUInt32LE(crc, at + 10);
  header.writeUInt32LE(size, at + 14); // stored: compressed and uncompressed sizes are the same
  header.writeUInt32LE(size, at + 18);
  header.writeUInt16LE(nameLength, at + 22);
}

/**
 * A zip of the given parts, stored as they are, in the given order: for a streaming reader that needs its
 * parts in one order and should not inflate them again. Small by design (no compression, no ZIP64: parts
 * and archive under 4 GiB, fewer than 65,536 parts).
 */
export function storedZip(parts: [path: string, data: Buffer][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [path, data] of parts) {
    const name = Buffer.from(path, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    writeEntryFields(local, 4, crc, data.length, name.length);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(VERSION, 4);
    writeEntryFields(central, 6, crc, data.length, name.length);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
