import { createHash } from 'node:crypto';
import { CrudConfig, LiveRecordTable, TenantScope } from '@app/common';
import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { DataSource, EntityManager } from 'typeorm';
import { MainServiceConfig } from '../../main-service.config';
import { Translation } from './translation.entity';

/** Keys one tenant's namespace serves at most (in key order): a browser's strings, not a data export. */
export const BUNDLE_MAX_KEYS = 50_000;
/** The bundles a replica keeps built, by their JSON's size. */
const CACHED_BYTES_MAX = 32 * 1024 * 1024;

/** What a browser loads for one tenant, language and namespace: the JSON text and its entity tag. */
export interface TranslationBundle {
  etag: string;
  json: string;
}

/**
 * The translations a browser loads (i18next-http-backend's loadPath): the live, completed (not draft) entries of a
 * language and namespace, the tenant's over the default tenant's, as one flat JSON object. The entity tag is made of
 * both tenants' write versions of the translation table (live-count-sql.ts): a conditional load costs one small read,
 * and a bundle is rebuilt only after a write of either tenant, through any replica.
 */
@Injectable()
export class TranslationBundles {
  private readonly table: LiveRecordTable<Translation>;
  private readonly built = new LRUCache<string, TranslationBundle>({
    maxSize: CACHED_BYTES_MAX,
    sizeCalculation: (bundle) => Math.max(1, bundle.json.length),
  });

  constructor(
    dataSource: DataSource,
    @Inject(CrudConfig) private readonly crudConfig: CrudConfig,
    @Inject(MainServiceConfig) private readonly config: MainServiceConfig,
  ) {
    this.table = new LiveRecordTable(Translation, 'translationId', dataSource);
  }

  /** Whether browsers may load the namespace (TRANSLATION_PUBLIC_NAMESPACES). */
  isPublic(namespace: string): boolean {
    const listed = this.config.translationPublicNamespaces;
    return listed === undefined ? namespace !== 'error' : listed.includes('*') || listed.includes(namespace);
  }

  /** The current entity tag of the bundle, without reading entries; undefined where the table keeps no versions. */
  async etagOf(tenantId: string, language: string, namespace: string): Promise<string | undefined> {
    const versions = await this.table.versions(this.tenants(tenantId));
    return versions && etag([language, namespace, ...versions]);
  }

  /** The bundle, built in one snapshot (or the one built at the same versions). */
  async load(tenantId: string, language: string, namespace: string): Promise<TranslationBundle> {
    const tenants = this.tenants(tenantId);
    const key = JSON.stringify([tenantId, language, namespace]);
    return this.table.snapshot(async (manager) => {
      const versions = await this.table.versions(tenants, manager);
      const tag = versions && etag([language, namespace, ...versions]);
      const hit = tag && this.built.get(key);
      if (hit && hit.etag === tag) return hit;
      const entries: Record<string, string> = {};
      // the default tenant's first: the tenant's own entries override them
      for (const id of [...tenants].reverse()) Object.assign(entries, await this.entries(id, language, namespace, manager));
      const json = JSON.stringify(entries);
      const bundle = { etag: tag ?? etag([json]), json };
      if (tag) this.built.set(key, bundle);
      return bundle;
    });
  }

  /** What a namespace browsers may not load answers: `{}`, tagged as an empty namespace of the tenant would be. */
  async empty(tenantId: string, language: string): Promise<TranslationBundle> {
    return { etag: (await this.etagOf(tenantId, language, '')) ?? etag(['{}']), json: '{}' };
  }

  /** The tenant and the default tenant (once when they are the same): an unknown tenant has no entries of its own. */
  private tenants(tenantId: string): string[] {
    const fallback = this.crudConfig.defaultTenantId;
    return tenantId === fallback ? [tenantId] : [tenantId, fallback];
  }

  private async entries(tenantId: string, language: string, namespace: string, manager: EntityManager): Promise<Record<string, string>> {
    const scope = TenantScope.system('translations for browsers', tenantId, 'anonymous');
    const rows = await this.table.find(
      scope,
      { language, namespace, draft: false },
      { select: { key: true, value: true }, order: { key: 'ASC' }, take: BUNDLE_MAX_KEYS, manager },
    );
    // an entry without a value has no text to show: i18next falls back for it as for a missing key
    return Object.fromEntries(rows.filter((row) => row.value !== null).map((row) => [row.key, row.value as string]));
  }
}

const etag = (parts: string[]): string => `"${createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 27)}"`;
