import { ApiTags } from '@nestjs/swagger';

/** Descriptions of the tags declared with ApiTag, for the documents' `tags` list (setupOpenApi). */
const DESCRIPTIONS = new Map<string, string>();

export function tagDescription(name: string): string | undefined {
  return DESCRIPTIONS.get(name);
}

/** A controller's OpenAPI tag with its description (Swagger UI shows it under the tag; generators use it as the API's doc). */
export function ApiTag(name: string, description: string): ClassDecorator {
  const known = DESCRIPTIONS.get(name);
  if (known !== undefined && known !== description) throw new Error(`Tag "${name}" is described twice, differently`);
  DESCRIPTIONS.set(name, description);
  return ApiTags(name);
}
