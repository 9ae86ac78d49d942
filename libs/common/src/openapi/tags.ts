import { ApiTags } from '@nestjs/swagger';

/** Descriptions of the tags declared with ApiTag, for the documents' `tags` list (setupOpenApi). */
const DESCRIPTIONS = new Map<string, string>();

export function tagDescription(name: string): string | undefined {
  return DESCRIPTIONS.get(name);
}

/**
 * A controller's OpenAPI tag with its description (Swagger UI shows it under the tag; generators use it as the API's doc).
 * Group and resource are written `group: resource`. A "/" is refused: Swagger UI's deep links
 * (`#/<tag>/<operationId>`) are split at every "/" after decoding, so an operation of such a tag could not be opened by its link.
 */
export function ApiTag(name: string, description: string): ClassDecorator {
  if (name.includes('/'))
    throw new Error(
      `Tag "${name}" contains "/": Swagger UI's deep links (#/<tag>/<operationId>) cannot address it; write "group: resource"`,
    );
  const known = DESCRIPTIONS.get(name);
  if (known !== undefined && known !== description) throw new Error(`Tag "${name}" is described twice, differently`);
  DESCRIPTIONS.set(name, description);
  return ApiTags(name);
}
