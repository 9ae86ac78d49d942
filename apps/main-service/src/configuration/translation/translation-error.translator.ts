import { availableLanguages, CrudConfig, CrudService, ErrorTextOverrides, TenantScope, TranslationsByLanguage } from '@app/common';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { IsNull, Not } from 'typeorm';
import { Translation } from './translation.entity';
import { translationResource } from './translation.resource';

/**
 * The deployment's translations of error texts: the default tenant's entries of namespace `error`, keyed
 * by the English template (e.g. `{{property}} is required`, `Data dictionary`); they win over the shipped catalogues.
 */
export const ERROR_NAMESPACE = 'error';
/** Languages whose error texts are held at once; the least recently used is dropped beyond. */
export const MAX_CACHED_LANGUAGES = 32;
/** Even with the list cache switched off (TTL 0), error responses reuse what was loaded for this long. */
const MIN_TTL_MS = 1000;

/** The translators of this process, told when a translation write has been answered. */
const live = new Set<TranslationErrorTranslator>();

/** Called after every write operation on translations: the next error response reloads what it needs. */
export function translationsWritten(): void {
  for (const translator of live) translator.invalidate();
}

interface Expiring<T> {
  expires: number;
  value: Promise<T>;
}

/**
 * Every error response may be translated, anonymous ones included, so nothing a caller sends may grow
 * memory or cause a query: the header is resolved against the languages that exist (one small set,
 * loaded once per TTL), and only an existing language's texts are loaded, into a cache of bounded size.
 * Both are dropped on any write to translations through this process, and expire after the list-cache
 * TTL (at least MIN_TTL_MS) for writes made by other replicas.
 */
@Injectable()
export class TranslationErrorTranslator extends ErrorTextOverrides implements OnModuleDestroy {
  private languages?: Expiring<Map<string, string>>;
  /** Language -> error text -> translation, for the MAX_CACHED_LANGUAGES most recently used languages. */
  private readonly texts = new LRUCache<string, Expiring<Map<string, string>>>({ max: MAX_CACHED_LANGUAGES });

  constructor(
    @Inject(translationResource.serviceToken) private readonly translations: CrudService<Translation>,
    private readonly config: CrudConfig,
  ) {
    super();
    live.add(this);
  }

  /** Error texts are the default tenant's, whoever the failing request was (anonymous ones included). */
  private get defaultTenant(): TenantScope {
    return TenantScope.system('translating error texts', this.config.defaultTenantId, 'error-translator');
  }

  /** How many languages' texts are held (observability and tests). */
  get cachedLanguages(): number {
    return this.texts.size;
  }

  async textsFor(acceptLanguage: string): Promise<TranslationsByLanguage> {
    const existing = await this.cached(
      () => this.languages,
      (e) => (this.languages = e),
      () => this.loadLanguages(),
    );
    const found = new Map<string, ReadonlyMap<string, string>>();
    for (const language of availableLanguages(acceptLanguage, existing)) found.set(language.toLowerCase(), await this.textsOf(language));
    return found;
  }

  private textsOf(language: string): Promise<Map<string, string>> {
    return this.cached(
      () => this.texts.get(language),
      (entry) => this.texts.set(language, entry),
      () => this.loadTexts(language),
    );
  }

  /** A fresh entry, or a new load stored through `store`; a failed load is never kept. */
  private cached<T>(read: () => Expiring<T> | undefined, store: (entry: Expiring<T>) => void, load: () => Promise<T>): Promise<T> {
    const hit = read();
    if (hit && hit.expires > Date.now()) return hit.value;
    const entry = { expires: Date.now() + Math.max(this.config.listCacheTtlMs, MIN_TTL_MS), value: load() };
    store(entry);
    entry.value.catch(() => read() === entry && this.invalidate());
    return entry.value;
  }

  /** Lower-cased tag -> stored tag of every language with at least one completed error text. */
  private async loadLanguages(): Promise<Map<string, string>> {
    const stored = await this.translations.distinctValues(
      'language',
      { namespace: ERROR_NAMESPACE, draft: false, value: Not(IsNull()) },
      this.defaultTenant,
    );
    const languages = new Map<string, string>();
    for (const language of stored) if (!languages.has(language.toLowerCase())) languages.set(language.toLowerCase(), language);
    return languages;
  }

  private async loadTexts(language: string): Promise<Map<string, string>> {
    const rows = await this.translations.list({ language, namespace: ERROR_NAMESPACE, draft: false }, this.defaultTenant);
    return new Map(rows.filter((r) => r.value).map((r) => [r.key, r.value as string]));
  }

  invalidate(): void {
    this.languages = undefined;
    this.texts.clear();
  }

  onModuleDestroy(): void {
    live.delete(this);
  }
}
