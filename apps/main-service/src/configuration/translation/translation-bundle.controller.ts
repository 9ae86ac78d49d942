import {
  ApiTag,
  AppException,
  namedAnswerSchema,
  LANGUAGE_TAG_MAX,
  LANGUAGE_TAG_PATTERN,
  message,
  Operation,
  TOKEN_IDENTIFIER_PATTERN,
} from '@app/common';
import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { BUNDLE_MAX_KEYS, TranslationBundles } from './translation-bundles';
import { NAMESPACE_MAX, NAMESPACE_PATTERN } from './translation.entity';
import { AddressThrottlerGuard, SAVE_MISSING_THROTTLER } from './save-missing-limit';

/** How long a browser (and a shared cache) may use a loaded bundle before asking again with its ETag. */
const MAX_AGE_SECONDS = 60;

/**
 * Key to translated value. Declared as an object of any values: a failure's envelope (HTTP 200 like every other 400
 * of the service) comes in the same answer, and a generator makes one map type of it (Java `Map<String, Object>`).
 */
const BUNDLE_SCHEMA = namedAnswerSchema('TranslationBundle', {
  type: 'object',
  description: "Key to translated value (strings); on a failure, the envelope with the failure's status",
  additionalProperties: {},
  example: { 'button.save': 'Speichern', 'button.cancel': 'Abbrechen' },
});

function parameter(value: string, name: string, pattern: RegExp, max: number): string {
  if (value.length > max || !pattern.test(value) || value === 'cimode')
    throw AppException.validation(message("Parameter '{{name}}' is not acceptable", { name }));
  return value;
}

@ApiTag('configuration: translation for browsers', "Translations a web client loads with i18next-http-backend's loadPath, anonymously.")
@Controller('main-api/v1/general/configuration/translation')
export class TranslationBundleController {
  constructor(private readonly bundles: TranslationBundles) {}

  @Get(':tenantId/:lng/:ns.json')
  @UseGuards(AddressThrottlerGuard)
  @SkipThrottle({ [SAVE_MISSING_THROTTLER]: true })
  @Operation({
    public: true,
    summary: "A tenant's translations of one language and namespace, as i18next loads them (loadPath)",
    description:
      "A flat JSON object of key to value (set i18next's `keySeparator: false`), not the envelope: the live entries that are not drafts, " +
      "the tenant's over the default tenant's; a tenant without entries, or an id that is no tenant, gets the default tenant's. " +
      `Only the namespaces TRANSLATION_PUBLIC_NAMESPACES lists (default: all but \`error\`); any other, and an unknown language, is \`{}\`. ` +
      `At most ${BUNDLE_MAX_KEYS} keys per tenant and namespace, in key order. ` +
      `\`ETag\` and \`Cache-Control: public, max-age=${MAX_AGE_SECONDS}\`; a request with a matching \`If-None-Match\` is answered 304. ` +
      'Rate-limited per client address (TRANSLATION_LOAD_RATE_LIMIT per minute; beyond: 429). A namespace with a `/` is sent encoded: `admin%2Fusers.json`.',
    failures: [
      {
        status: 400,
        when: 'tenantId, lng or ns is not of the accepted form; nothing is read.',
        error: "Parameter 'lng' is not acceptable",
      },
      { status: 429, when: 'More than TRANSLATION_LOAD_RATE_LIMIT loads from this client address in a minute.' },
    ],
    raw: { contentType: 'application/json', description: 'A flat JSON object of key to translated value', schema: BUNDLE_SCHEMA },
  })
  @ApiParam({
    name: 'tenantId',
    example: 'default',
    description: 'The tenant whose entries override the default tenant’s (1-64 of 0-9 A-Z a-z . _ @ -)',
  })
  @ApiParam({ name: 'lng', example: 'de-DE', description: 'BCP 47 language tag, as saveMissing takes it' })
  @ApiParam({ name: 'ns', example: 'common', description: 'i18next namespace, `/` sent as %2F' })
  async load(
    @Param('tenantId') rawTenant: string,
    @Param('lng') rawLanguage: string,
    @Param('ns') rawNamespace: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const tenantId = parameter(rawTenant, 'tenantId', TOKEN_IDENTIFIER_PATTERN, 64);
    const language = parameter(rawLanguage, 'lng', LANGUAGE_TAG_PATTERN, LANGUAGE_TAG_MAX);
    const namespace = parameter(rawNamespace, 'ns', NAMESPACE_PATTERN, NAMESPACE_MAX);
    // a namespace not made public looks like one without entries
    const served = this.bundles.isPublic(namespace) ? namespace : '';
    const asked = request.headers['if-none-match'];
    response.set('Cache-Control', `public, max-age=${MAX_AGE_SECONDS}`);
    if (asked) {
      const current = await this.bundles.etagOf(tenantId, language, served);
      if (current && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === current)) {
        response.set('ETag', current).status(304).end();
        return;
      }
    }
    const bundle = served ? await this.bundles.load(tenantId, language, served) : await this.bundles.empty(tenantId, language);
    response.set('ETag', bundle.etag).type('application/json').send(bundle.json);
  }
}
