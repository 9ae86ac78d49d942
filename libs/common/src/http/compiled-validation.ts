import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type ValidationMetadata = ReturnType<Storage['getTargetValidationMetadatas']>[number];
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
  /** The class of a nested object (ValidateNested with the marker's declared type), checked by its own compiled rules. */
  nested?: NestedType;
}

/** The rules of a class that compiles: every property with a rule, in class-validator's order. */
interface ClassRules {
  properties: PropertyRules[];
  known: Set<string>;
}

type NestedType = new () => object;

/** Nested objects of a marked class: the property and the class class-transformer makes of its value (its `@Type`). */
export type NestedTypes = Readonly<Record<string, NestedType>>;

const KINDS = new Set<string>([
  ValidationTypes.CUSTOM_VALIDATION,
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.IS_DEFINED,
  ValidationTypes.WHITELIST,
]);

/** Keys that Nest's pipe strips or class-transformer skips: such a body goes the whole way. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

const isPromise = (value: unknown): boolean =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';

/** A JSON scalar: what a property's value must be for the conversion to be a copy. */
const isScalar = (value: unknown): boolean => value === null || (typeof value !== 'object' && typeof value !== 'function');

/**
 * Classes whose conversion is a copy of their keys (no class-transformer decorator on them or an ancestor) and whose
 * rules are complete once the class is made: what the project's field declarations build (markCompiledRules).
 */
const marked = new WeakMap<object, NestedTypes>();

/** Each marked class's rules, compiled on first use; null: the class has rules of another kind and does not compile. */
const compiled = new WeakMap<object, ClassRules | null>();

/**
 * Marks `type` as checked by its compiled rules: the factory that builds it vouches that it has no class-transformer
 * decorator (on it or an ancestor) but a `@Type` of each of `nested`'s properties, naming the class given there (itself
 * marked), and that no rule is added to it afterwards. Any other class goes through class-transformer and
 * class-validator.
 */
export function markCompiledRules<T extends object>(type: T, nested: NestedTypes = {}): T {
  marked.set(type, nested);
  return type;
}

/** Whether `type` was marked by markCompiledRules. */
export const hasCompiledRules = (type: object): boolean => marked.has(type);

function compile(storage: Storage, metadatas: ValidationMetadata[], nested: NestedTypes): ClassRules | null {
  // no rules: forbidUnknownValues refuses the body; a promised or unknown kind of rule, or a nested one of a property
  // the marker names no class for: class-validator's way (an async rule is found when it answers with a promise)
  const known = (m: ValidationMetadata) =>
    KINDS.has(m.type) || (m.type === ValidationTypes.NESTED_VALIDATION && !m.each && Object.hasOwn(nested, m.propertyName));
  if (!metadatas.length || !metadatas.every(known)) return null;
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
    const nestedType = rules.some((m) => m.type === ValidationTypes.NESTED_VALIDATION) ? nested[property] : undefined;
    properties.push({ property, conditions, rules: compiledRules, nested: nestedType });
  }
  return { properties, known: new Set(properties.map((p) => p.property)) };
}

/**
 * plainToInstance of a body whose values are JSON scalars or arrays of them, for a class without class-transformer
 * decorators (enableImplicitConversion off): a new instance, each key copied in order
 * (arrays as copies), except keys the instance holds a function under or the class reads through a getter alone.
 * A property of `nested` takes the instance acceptedBody makes of its value (undefined: the body goes the whole way).
 * Undefined for any other body.
 */
function instanceOf(
  type: new () => object,
  body: Record<string, unknown>,
  nested: NestedTypes,
  storage: Storage,
): Record<string, unknown> | undefined {
  const entity = new type() as Record<string, unknown>;
  for (const key of Object.keys(body)) {
    if (RESERVED.has(key)) return undefined;
    let value = body[key];
    // class-transformer puts a default or undefined in place of undefined as its options say; JSON has none
    if (value === undefined) return undefined;
    if (!isScalar(value) && Object.hasOwn(nested, key)) {
      if ((value = acceptedBody(nested[key], value, storage)) === undefined) return undefined;
    } else if (!isScalar(value)) {
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
 * what checkRows keeps of such a row, for a class marked by markCompiledRules, made by running each rule's own
 * validate function: the instance class-transformer would make, with the properties that have no rule removed.
 * Undefined whenever the pipe would refuse the body, or might: a failing rule, a nested value, a class not marked or
 * with rules of another kind. The pipe then runs class-transformer and class-validator, so every refusal, its clauses
 * and its texts come from class-validator itself.
 */
export function acceptedBody(type: new () => object, body: unknown, storage: Storage = getMetadataStorage()): object | undefined {
  if (body === null || typeof body !== 'object' || Object.getPrototypeOf(body) !== Object.prototype) return undefined;
  const nested = marked.get(type);
  if (!nested) return undefined;
  let rules = compiled.get(type);
  if (rules === undefined) {
    // the executor's own lookup (no schema, no groups), once per class: a marked class gets no rule later
    const metadatas = storage.getTargetValidationMetadatas(type, undefined as unknown as string, false, false, undefined);
    compiled.set(type, (rules = compile(storage, metadatas, nested)));
  }
  if (!rules) return undefined;
  // a nested object is made and checked as the executor checks it (whitelist and rules of its own class) before its
  // parent's rules see it, as they see class-transformer's instance
  const entity = instanceOf(type, body as Record<string, unknown>, nested, storage);
  if (!entity) return undefined;
  for (const key of Object.keys(entity)) if (!rules.known.has(key)) delete entity[key];
  const args: ValidationArguments = {
    targetName: entity.constructor?.name,
    property: '',
    object: entity,
    value: undefined,
    constraints: [],
  };
  for (const { property, conditions, rules: checks, nested: inner } of rules.properties) {
    const value = entity[property];
    // every condition is asked, as the executor asks them all
    let validated = true;
    for (const condition of conditions) validated = condition(entity, value) && validated;
    // a nested object its conditions skip keeps what the executor would not have stripped: the pipe's way
    if (!validated && inner && value instanceof inner) return undefined;
    if (!validated) continue;
    for (const rule of checks) if (passes(rule, args, value) !== true) return undefined;
  }
  return entity;
}
