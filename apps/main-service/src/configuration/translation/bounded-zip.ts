import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The part of unzipper's central-directory reader used here (the package ships no type declarations). */
interface ZipDirectoryFile {
  path: string;
  type: 'File' | 'Directory';
  stream(): Readable;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const unzipper = require('unzipper') as { Open: { buffer(data: Buffer): Promise<{ files: ZipDirectoryFile[] }> } };

export interface InflateBounds {
  /** Entries listed in the central directory. */
  maxEntries: number;
  /** Bytes actually inflated for one entry (the sizes a zip declares can lie, so they are never trusted). */
  maxEntryBytes: number;
  /** Bytes actually inflated for all selected entries together. */
  maxTotalBytes: number;
}

const mib = (bytes: number): string => `${+(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The archive is not a zip that can be read. */
export class UnreadableZipError extends Error {}

/** Inflating the archive would exceed a bound: it was stopped there. */
export class ZipBoundError extends Error {}

/** Collects an entry's inflated bytes and fails as soon as a bound is crossed, which stops the inflation. */
class BoundedSink extends Writable {
  readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly path: string,
    private readonly bounds: InflateBounds,
    private readonly total: { bytes: number },
  ) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error) => void): void {
    this.size += chunk.length;
    this.total.bytes += chunk.length;
    if (this.size > this.bounds.maxEntryBytes)
      return done(new ZipBoundError(`${this.path} inflates to more than ${mib(this.bounds.maxEntryBytes)}`));
    if (this.total.bytes > this.bounds.maxTotalBytes)
      return done(new ZipBoundError(`its parts inflate to more than ${mib(this.bounds.maxTotalBytes)} together`));
    this.chunks.push(chunk);
    done();
  }
}

/**
 * Inflates the selected entries of a zip held in memory, never more than the bounds allow. Only the
 * central directory is read up front; each entry is inflated by zlib as a stream (off the event loop)
 * and counted as it comes, so a decompression bomb costs at most the bound.
 */
export async function inflateEntries(zip: Buffer, wanted: (path: string) => boolean, bounds: InflateBounds): Promise<Map<string, Buffer>> {
  let files: ZipDirectoryFile[];
  try {
    files = (await unzipper.Open.buffer(zip)).files;
  } catch {
    throw new UnreadableZipError('not a zip archive');
  }
  if (files.length > bounds.maxEntries) throw new ZipBoundError(`the archive lists more than ${bounds.maxEntries} entries`);
  const entries = new Map<string, Buffer>();
  const total = { bytes: 0 };
  for (const file of files) {
    if (file.type !== 'File' || !wanted(file.path)) continue;
    if (entries.has(file.path)) throw new UnreadableZipError(`${file.path} is listed twice`);
    const sink = new BoundedSink(file.path, bounds, total);
    try {
      await pipeline(file.stream(), sink);
    } catch (error) {
      if (error instanceof ZipBoundError) throw error;
      throw new UnreadableZipError(`${file.path} cannot be inflated`);
    }
    entries.set(file.path, Buffer.concat(sink.chunks));
  }
  return entries;
}
