import { AppConfig, CrudService, ErrorTranslator, preferredLanguages, TtlCache } from '@app/common';
import { Inject, Injectable } from '@nestjs/common';
import { Translation } from './translation.entity';
import { translationResource } from './translation.resource';

/** Error texts are translated by the default tenant's entries of namespace `error` (key = the error text). */
export const ERROR_NAMESPACE = 'error';

@Injectable()
export class TranslationErrorTranslator extends ErrorTranslator {
  constructor(
    @Inject(translationResource.serviceToken) private readonly translations: CrudService<Translation>,
    private readonly config: AppConfig,
    private readonly cache: TtlCache,
  ) {
    super();
  }

  async translate(error: string, acceptLanguage: string | undefined): Promise<string | undefined> {
    for (const language of preferredLanguages(acceptLanguage)) {
      const entries = await this.cache.getOrLoad(`error-translations:${language}`, this.config.defaultTenantId, this.config.listCacheTtlMs, () =>
        this.load(language),
      );
      const value = entries.get(error);
      if (value) return value;
    }
    return undefined;
  }

  private async load(language: string): Promise<Map<string, string>> {
    const rows = await this.translations.findAll(this.config.defaultTenantId, { language, namespace: ERROR_NAMESPACE });
    return new Map(rows.filter((r) => r.value && !r.draft).map((r) => [r.key, r.value as string]));
  }
}
