import { getMetadataStorage, ValidationError } from 'class-validator';
import { Message, message, MessageParam } from '../i18n/message';

/** class-validator rules that mean "wrong type" (1003) rather than "bad value" (400). */
export const TYPE_RULES = new Set([
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isArray',
  'isObject',
  'nestedValidation',
  'whitelistValidation',
  'unknownValue',
]);

/** Rules that say "empty" come right after the type: an empty value fails nothing else worth naming. */
const EMPTINESS_RULES = new Set(['isNotEmpty', 'isNotBlank', 'arrayNotEmpty']);

type Constraints = readonly unknown[];

/**
 * The English template of each built-in rule the service uses, and its parameters from the rule's
 * constraints. Rules declared with their own message (`$property must be ...`) use that message instead.
 */
const RULE_TEXTS: Record<string, { template: string; params?: (c: Constraints) => Record<string, MessageParam> }> = {
  isString: { template: '{{property}} must be a string' },
  isInt: { template: '{{property}} must be an integer' },
  isNumber: { template: '{{property}} must be a number' },
  isBoolean: { template: '{{property}} must be a boolean' },
  isArray: { template: '{{property}} must be an array' },
  isObject: { template: '{{property}} must be an object' },
  nestedValidation: { template: '{{property}} must be an object' },
  whitelistValidation: { template: '{{property}} is not allowed' },
  isIn: { template: '{{property}} must be one of: {{values}}', params: (c) => ({ values: (c[0] as unknown[]).join(', ') }) },
  min: { template: '{{property}} must not be less than {{min}}', params: (c) => ({ min: Number(c[0]) }) },
  max: { template: '{{property}} must not be greater than {{max}}', params: (c) => ({ max: Number(c[0]) }) },
  minLength: { template: '{{property}} must be at least {{min}} characters long', params: (c) => ({ min: Number(c[0]) }) },
  maxLength: { template: '{{property}} must be at most {{max}} characters long', params: (c) => ({ max: Number(c[0]) }) },
  isNotEmpty: { template: '{{property}} must not be empty' },
  arrayNotEmpty: { template: '{{property}} must contain at least one item' },
  arrayMaxSize: { template: '{{property}} must contain at most {{max}} items', params: (c) => ({ max: Number(c[0]) }) },
  matches: { template: '{{property}} does not have the expected format' },
};

export const REQUIRED_TEMPLATE = '{{property}} is required';

/** Every English template a validation clause may have, for the catalogues (own messages are listed where declared). */
export const VALIDATION_TEMPLATES = [REQUIRED_TEMPLATE, ...Object.values(RULE_TEXTS).map((r) => r.template)];

export interface Clause {
  path: string;
  rule: string;
  absent: boolean;
  message: Message;
}

const rank = (rule: string, index: number) => (TYPE_RULES.has(rule) ? 0 : EMPTINESS_RULES.has(rule) ? 1 : 2 + index);

/** The one rule to report of a property: its type first, then emptiness, then the first of the others. */
const firstRule = (rules: string[]): string =>
  rules.map((rule, index) => ({ rule, r: rank(rule, index) })).reduce((a, b) => (b.r < a.r ? b : a)).rule;

interface RuleMetadata {
  name?: string;
  type: string;
  propertyName: string;
  constraints?: unknown[];
  each?: boolean;
  message?: unknown;
}

/** The declaration of `rule` on the property of the validated object's class (constraints, own message, `each`). */
function declarationOf(target: object | undefined, property: string, rule: string): RuleMetadata | undefined {
  if (!target || typeof target !== 'object') return undefined;
  const all = getMetadataStorage().getTargetValidationMetadatas(target.constructor, '', true, false) as unknown as RuleMetadata[];
  return all.find((m) => m.propertyName === property && (m.name === rule || m.type === rule));
}

/** A rule's own message (`$property must be ...`) as a template; its constraints become `{{constraint1}}`... */
function ownTemplate(text: string, constraints: Constraints): { template: string; params: Record<string, MessageParam> } {
  const params: Record<string, MessageParam> = {};
  constraints.forEach((c, i) => (params[`constraint${i + 1}`] = String(c)));
  return { template: text.replace(/\$property/g, '{{property}}').replace(/\$constraint(\d)/g, '{{constraint$1}}'), params };
}

function ruleMessage(e: ValidationError, rule: string, path: string): Message {
  const declared = declarationOf(e.target, e.property, rule);
  // a rule on every item of a list (`each`) names the items: toAddresses[*]
  const property = declared?.each ? `${path}[*]` : path;
  const constraints = declared?.constraints ?? [];
  if (typeof declared?.message === 'string') {
    const own = ownTemplate(declared.message, constraints);
    return message(own.template, { property, ...own.params });
  }
  const known = RULE_TEXTS[rule];
  // a text with parameters needs the rule's declaration; without one (a rule added at run time) the English message stands
  if (known && (!known.params || declared)) return message(known.template, { property, ...(known.params?.(constraints) ?? {}) });
  // a rule without a known text: its English message, the property spelled as the path
  const text = e.constraints?.[rule] ?? rule;
  return message(text.startsWith(e.property) ? `{{property}}${text.slice(e.property.length)}` : `{{property}}: ${text}`, { property });
}

/**
 * One clause per failing property, with the first rule it breaks: "<property> is required" when it is
 * missing, else its type, else the first other rule. Nested objects and list items are named by path.
 */
export function validationClauses(errors: ValidationError[], prefix = ''): Clause[] {
  return errors.flatMap((e) => {
    const path = prefix ? (/^\d+$/.test(e.property) ? `${prefix}[${e.property}]` : `${prefix}.${e.property}`) : e.property;
    const rules = Object.keys(e.constraints ?? {});
    if (!rules.length) return validationClauses(e.children ?? [], path);
    const absent = e.value === undefined || e.value === null;
    const rule = firstRule(rules);
    if (absent && rule !== 'unknownValue') return [{ path, rule, absent, message: message(REQUIRED_TEMPLATE, { property: path }) }];
    return [{ path, rule, absent, message: ruleMessage(e, rule, path) }];
  });
}
