import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { cacheValidationMetadata } from './validation-metadata-cache';

type Storage = ReturnType<typeof getMetadataStorage>;
type Value = unknown;
type Condition = (object: object, value: Value) => boolean;
type Check = (value: Value, args: ValidationArguments) => unknown;

/** One rule of a property: its metadata and the validate functions of its constraint classes. */
interface Rule {
  metadata: ValidationMetadata;
  checks: Check[];
}

/** A property's rules as class-validator's executor runs them: conditions first, then IsDefined, then the rest. */
interface PropertyRules {
  property: string;
  conditions: Condition[];
  rules: Rule[];
}

/** The rules of a class that compiles: every property with a rule, in class-validator's order. */
interface ClassRules {
  properties: PropertyRules[];
  known: Set<string>;
}

/** class-transformer's own decorators by class (its storage's fields): a class or an ancestor in one of them is converted by more than a copy. */
interface TransformerMaps {
  _typeMetadatas: Map<object, unknown>;
  _transformMetadatas: Map<object, unknown>;
  _exposeMetadatas: Map<object, unknown>;
  _excludeMetadatas: Map<object, unknown>;
}

const KINDS = new Set<string>([
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.IS_DEFINED,
  ValidationTypes.WHITELIST,
]);

/** Keys that Nest's pipe strips or class-transformer skips: such a body goes the whole way. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** class-transformer's storage; the package's entry point does not export it. */
let transformerStorage: TransformerMaps | undefined;
const transformerMaps = (): TransformerMaps =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (transformerStorage ??= (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerMaps }).defaultMetadataStorage);

const isPromise = (value: unknown): boolean =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';

/** A JSON scalar: what a property's value must be for the conversion to be a copy. */
const isScalar = (value: unknown): boolean => value === null || (typeof value !== 'object' && typeof value !== 'function');

/**
 * Compiled per resolved rule list (class-validator's metadata cache hands out the same list until any rule is
 * registered, so a new rule makes a new list and the class is compiled again). Null: the class does not compile.
 */
const compiled = new WeakMap<object, ClassRules | null>();

function compile(storage: Storage, metadatas: ValidationMetadata[]): ClassRules | null {
  // no rules: forbidUnknownValues refuses the body; a nested, promised or unknown kind of rule: class-validator's way
  // (an async rule is found when it answers with a promise)
  if (!metadatas.length || metadatas.some((m) => !KINDS.has(m.type))) return null;
  const properties: PropertyRules[] = [];
  for (const [property, rules] of Object.entries(storage.groupByPropertyName(metadatas))) {
    const conditions = rules.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION).map((m) => m.constraints[0] as Condition);
    const checked = [
      ...rules.filter((m) => m.type === ValidationTypes.IS_DEFINED),
      ...rules.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION),
    ];
    const compiledRules: Rule[] = [];
    for (const metadata of checked) {
      const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
      compiledRules.push({ metadata, checks: constraints.map((c) => c.instance.validate.bind(c.instance) as Check) });
    }
    properties.push({ property, conditions, rules: compiledRules });
  }
  return { properties, known: new Set(properties.map((p) => p.property)) };
}

/** Whether class-transformer converts an instance of `type` by copying its keys: none of its decorators on the class or an ancestor. */
function copiedByTransformer(type: object): boolean {
  const maps = transformerMaps();
  for (let t: object | null = type; typeof t === 'function' && t !== Function.prototype; t = Object.getPrototypeOf(t) as object | null) {
    if (maps._typeMetadatas.has(t) || maps._transformMetadatas.has(t) || maps._exposeMetadatas.has(t) || maps._excludeMetadatas.has(t))
      return false;
  }
  return true;
}

/**
 * plainToInstance of a body whose values are JSON scalars or arrays of them, for a class without class-transformer
 * decorators (enableImplicitConversion off): a new instance, each key copied in order
 * (arrays as copies), except keys the instance holds a function under or the class reads through a getter alone.
 * Undefined for any other body.
 */
function instanceOf(type: new () => object, body: Record<string, unknown>): Record<string, unknown> | undefined {
  const entity = new type() as Record<string, unknown>;
  for (const key of Object.keys(body)) {
    if (RESERVED.has(key)) return undefined;
    let value = body[key];
    // class-transformer puts a default or undefined in place of undefined as its options say; JSON has none
    if (value === undefined) return undefined;
    if (!isScalar(value)) {
      if (!Array.isArray(value)) return undefined;
      for (let i = 0; i < value.length; i++) if (!(i in value) || !isScalar(value[i])) return undefined;
      value = value.slice();
    }
    const accessor = Object.getOwnPropertyDescriptor(type.prototype, key);
    if ((accessor && !accessor.set) || entity[key] instanceof Function) continue;
    entity[key] = value;
  }
  return entity;
}

/**
 * A rule as the executor applies it, `each` over an array's items; undefined when a check answers with a promise.
 * `args` is the body's one arguments object, set here for this rule: the executor makes one per rule, but a check runs
 * synchronously (a promise sends the body the executor's way) and sees the same values.
 */
function passes({ metadata, checks }: Rule, args: ValidationArguments, value: Value): boolean | undefined {
  if (metadata.validateIf && !metadata.validateIf(args.object, value)) return true;
  args.property = metadata.propertyName;
  args.value = value;
  args.constraints = metadata.constraints;
  // instanceOf admits no Set or Map: `each` applies to arrays alone; the value alone is checked without an array for it
  const items = metadata.each && Array.isArray(value) ? (value as Value[]) : undefined;
  const count = items ? items.length : 1;
  for (const check of checks) {
    for (let i = 0; i < count; i++) {
      const valid = check(items ? items[i] : value, args);
      if (!valid || isPromise(valid)) return valid ? undefined : false;
    }
  }
  return true;
}

/**
 * What the validation pipe (whitelist, transform, forbidUnknownValues, no groups) answers for a body that passes, and
 * what checkRows keeps of such a row,
 * made by running each rule's own validate function: the instance class-transformer would make, with the properties
 * that have no rule removed. Undefined whenever the pipe would refuse the body, or might: a failing rule, a nested
 * value, a class with rules of another kind or with class-transformer decorators. The pipe then runs as always, so
 * every refusal, its clauses and its texts come from class-validator itself.
 */
export function acceptedBody(type: new () => object, body: unknown, storage: Storage = getMetadataStorage()): object | undefined {
  if (body === null || typeof body !== 'object' || Object.getPrototypeOf(body) !== Object.prototype) return undefined;
  cacheValidationMetadata(storage);
  // the executor's own lookup: the same cached list while the rules stay as they are
  const metadatas = storage.getTargetValidationMetadatas(type, undefined as unknown as string, false, false, undefined);
  let rules = compiled.get(metadatas);
  if (rules === undefined) compiled.set(metadatas, (rules = compile(storage, metadatas)));
  if (!rules || !copiedByTransformer(type)) return undefined;
  const entity = instanceOf(type, body as Record<string, unknown>);
  if (!entity) return undefined;
  for (const key of Object.keys(entity)) if (!rules.known.has(key)) delete entity[key];
  const args: ValidationArguments = {
    targetName: entity.constructor?.name,
    property: '',
    object: entity,
    value: undefined,
    constraints: [],
  };
  for (const { property, conditions, rules: checks } of rules.properties) {
    const value = entity[property];
    // every condition is asked, as the executor asks them all
    let validated = true;
    for (const condition of conditions) validated = condition(entity, value) && validated;
    if (!validated) continue;
    for (const rule of checks) if (passes(rule, args, value) !== true) return undefined;
  }
  return entity;
}
