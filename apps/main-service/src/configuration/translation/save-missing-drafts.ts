import { CrudService, TenantScope } from '@app/common';
import { HttpException, HttpStatus } from '@nestjs/common';
import { Translation } from './translation.entity';

/** HTTP 429: the tenant holds SAVE_MISSING_MAX_DRAFTS drafts; an operator completes or deletes some first. */
export class DraftLimitReached extends HttpException {
  constructor() {
    super('saveMissing: the tenant holds the most drafts allowed', HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Stores a report's missing keys as drafts while the tenant holds fewer than `maxDrafts` live drafts, so
 * anonymous reports cannot grow the table without end. The drafts are counted once per report, up to the
 * cap (an index range scan of at most `maxDrafts` entries); keys beyond the cap are not stored and the
 * report answers 429. Reports stored at the same moment may together pass the cap by their keys (at most
 * 100 each).
 */
export class SaveMissingDrafts {
  constructor(
    private readonly translations: CrudService<Translation>,
    private readonly maxDrafts: number,
  ) {}

  /** How many of `rows` became new drafts; throws DraftLimitReached when the cap left some unstored. */
  async store(scope: TenantScope, rows: Partial<Translation>[]): Promise<number> {
    const room = this.maxDrafts - (await this.draftsHeld(scope));
    let created = 0;
    for (const row of rows) {
      if (created >= room) throw new DraftLimitReached();
      if (await this.translations.saveIfAbsent(row, scope)) created++;
    }
    return created;
  }

  /** The tenant's live drafts, counted up to the cap. */
  private draftsHeld(scope: TenantScope): Promise<number> {
    return this.translations.countUpTo({ draft: true }, this.maxDrafts, scope);
  }
}
