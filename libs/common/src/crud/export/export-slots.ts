import { DataSource } from 'typeorm';

/**
 * The exports a replica streams at once (EXPORT_CONCURRENCY), one bound per data source (per service of a process).
 * Each holds a pooled connection and its read view for as long as its client takes the file, so they are counted
 * apart from the requests the in-flight limit measures by latency.
 */
export class ExportSlots {
  private static readonly bySource = new WeakMap<DataSource, ExportSlots>();
  private taken = 0;

  static of(dataSource: DataSource): ExportSlots {
    let slots = ExportSlots.bySource.get(dataSource);
    if (!slots) ExportSlots.bySource.set(dataSource, (slots = new ExportSlots()));
    return slots;
  }

  get inUse(): number {
    return this.taken;
  }

  /** A slot's release (call once, when the export ends), or undefined when all `max` are taken. */
  take(max: number): (() => void) | undefined {
    if (this.taken >= max) return undefined;
    this.taken++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.taken--;
    };
  }
}
