import { BaseRecord, Field, LANGUAGE_TAG_MAX } from '@app/common';
import { Entity } from 'typeorm';

/** i18next namespaces may be paths or scoped names (`admin/users`, `@org/pkg`); no segment starts with a dot (no `..`). */
export const NAMESPACE_PATTERN = /^[A-Za-z0-9_@-][A-Za-z0-9_.@-]*(\/[A-Za-z0-9_@-][A-Za-z0-9_.@-]*)*$/;
export const NAMESPACE_MAX = 64;
export const KEY_MAX = 255;
export const VALUE_MAX = 10000;

@Entity('configuration_translation')
export class Translation extends BaseRecord {
  @Field.id()
  translationId: string;

  @Field.text({ max: LANGUAGE_TAG_MAX, required: true, key: true, format: 'bcp47', example: 'en-US', description: 'BCP 47 language tag' })
  language: string;

  @Field.text({
    max: NAMESPACE_MAX,
    required: true,
    key: true,
    pattern: NAMESPACE_PATTERN,
    patternMessage: '$property must be /-separated segments of letters, digits, _ . @ - not starting with a dot',
    example: 'common',
  })
  namespace: string;

  @Field.text({
    max: KEY_MAX,
    required: true,
    key: true,
    example: 'button.save',
    description: 'Flat dotted key, may carry a plural suffix (_one, _other, ...)',
  })
  key: string;

  @Field.text({ max: VALUE_MAX, example: 'Save' })
  value: string | null;

  @Field.bool({
    default: false,
    example: false,
    description: 'True for entries reported missing by a front end and not yet completed by an operator; set false when completing a draft',
  })
  draft: boolean;
}
