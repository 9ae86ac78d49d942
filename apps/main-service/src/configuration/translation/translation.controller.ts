import {
  CrudConfig,
  CrudController,
  LANGUAGE_TAG_MAX,
  LANGUAGE_TAG_PATTERN,
  Operation,
  RequestBody,
  ResourceController,
  SYNC_IMPORT_RESPONSE,
  TenantScope,
  WithExtra,
} from '@app/common';
import { Inject, NotFoundException, Post, Query, UploadedFile, UseGuards, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiQuery } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { ErrorTextsRefreshInterceptor } from './error-texts-refresh.interceptor';
import { parseMissingReport, SAVE_MISSING_BODY_LIMIT } from './save-missing';
import { SaveMissingDrafts } from './save-missing-drafts';
import { AddressThrottlerGuard, TRANSLATION_LOAD_THROTTLER } from './save-missing-limit';
import { readTranslationWorkbook } from './translation-import';
import { NAMESPACE_MAX, NAMESPACE_PATTERN } from './translation.entity';
import { translationResource as resource } from './translation.resource';
import { MainServiceConfig } from '../../main-service.config';

const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/**
 * The import's form takes one part, `file`; a client may add a few small text fields (which are ignored).
 * multer reads text fields into memory whole and leaves their number, size and the parts unbounded unless
 * told: 48 fields of 1 MB were held before the missing file was reported.
 */
const UPLOAD_FORM_LIMITS = { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 11 };

@ResourceController(resource)
@UseInterceptors(ErrorTextsRefreshInterceptor)
export class TranslationController extends CrudController(resource) {
  @Inject(MainServiceConfig) private readonly config: MainServiceConfig;
  @Inject(CrudConfig) private readonly crudConfig: CrudConfig;

  @Post('importList')
  @Operation({
    summary: 'Import translation entries from an XLSX workbook (upsert by language + namespace + key)',
    description:
      'Multipart part `file` (at most 5 MiB; beside it at most 10 text fields of 1 KiB each, which are ignored: more is refused with 400): the first worksheet, header row `language | namespace | key | value`, then at most 50,000 rows. All or nothing: a bad row refuses the import, named by its sheet row number. A workbook whose parts inflate beyond 32 MiB each or 40 MiB together is refused (400) without being unpacked further, as is one whose sheet cannot be read within 30 s. A replica reads one workbook at a time with four more waiting; another upload meanwhile is answered 503: retry shortly.',
    permission: resource.permissionFor('create'),
    response: SYNC_IMPORT_RESPONSE,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary' } } } })
  @UseInterceptors(FileInterceptor('file', { limits: UPLOAD_FORM_LIMITS }))
  async importList(@UploadedFile() file: Express.Multer.File | undefined) {
    return this.crud.importRows(await readTranslationWorkbook(file?.buffer));
  }

  @Post('saveMissing')
  @UseGuards(AddressThrottlerGuard)
  @SkipThrottle({ [TRANSLATION_LOAD_THROTTLER]: true })
  @Operation({
    public: true,
    bodyLimit: SAVE_MISSING_BODY_LIMIT,
    summary: 'Report missing i18n keys as drafts of the default tenant (i18next-http-backend `addPath`)',
    failures: [
      { status: 404, when: 'saveMissing is switched off (SAVE_MISSING_ENABLED=false).' },
      {
        status: 429,
        when: 'The default tenant holds SAVE_MISSING_MAX_DRAFTS drafts: the keys beyond are not stored until an operator completes or deletes drafts.',
      },
    ],
    description:
      'Body: `{ "<key>": "<fallback value>" }`, JSON or form-encoded. Each key that does not exist yet becomes a draft; existing entries are never overwritten. Bounded (64 KiB, 100 keys), rate-limited per client address (SAVE_MISSING_RATE_LIMIT per minute), capped at SAVE_MISSING_MAX_DRAFTS live drafts (keys beyond the cap are not stored, HTTP 429), and switched off with SAVE_MISSING_ENABLED=false.',
    response: { data: 'boolean', example: true, extra: { created: { type: 'integer', example: 1 } } },
  })
  @ApiQuery({
    name: 'lng',
    required: true,
    type: String,
    pattern: LANGUAGE_TAG_PATTERN.source,
    maxLength: LANGUAGE_TAG_MAX,
    example: 'en-US',
    description: 'BCP 47 language tag',
  })
  @ApiQuery({
    name: 'ns',
    required: true,
    type: String,
    pattern: NAMESPACE_PATTERN.source,
    maxLength: NAMESPACE_MAX,
    example: 'common',
    description: 'i18next namespace',
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: { type: 'string' }, example: { 'button.save': 'Save' } } })
  async saveMissing(@Query() query: Record<string, unknown>, @RequestBody() body: unknown) {
    if (!this.config.saveMissingEnabled) throw new NotFoundException();
    const report = parseMissingReport(query, body);
    const rows = report.entries.map(({ key, value }) => ({
      language: report.language,
      namespace: report.namespace,
      key,
      value,
      draft: true,
    }));
    // anonymous reports land in the default tenant, as drafts an operator reviews
    const scope = TenantScope.system('saveMissing reports of missing i18n keys', this.crudConfig.defaultTenantId, 'saveMissing');
    const created = await new SaveMissingDrafts(this.crud, this.config.saveMissingMaxDrafts).store(scope, rows);
    return new WithExtra(true, { created });
  }
}
