import { Expose, plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';

/** Environment variables as the process has them (`process.env`). */
export type Environment = Record<string, string | undefined>;

/**
 * A configuration namespace: a class whose properties are environment variables (`@Env`), each with its
 * validation and default beside it; its validated instance is the typed configuration that is injected.
 */
export interface ConfigClass<T extends object = object> {
  new (): T;
  /** Its @nestjs/config namespace (`ConfigService.get('<namespace>')`). */
  readonly namespace: string;
}

/** A namespace with something to say when the app starts (e.g. a development secret in use). */
export interface StartupWarnings {
  startupWarnings(): string[];
}

const variables = new WeakMap<object, Map<string, string>>();

/** The property is read from environment variable `name`; its other decorators validate and convert it. */
export function Env(name: string): PropertyDecorator {
  return (prototype, property) => {
    Expose({ name })(prototype, property);
    const names = variables.get(prototype.constructor) ?? new Map<string, string>();
    variables.set(prototype.constructor, names.set(String(property), name));
  };
}

/** `true`/`false` (any case); anything else is left as is, so @IsBoolean names the variable. */
export const toBool = ({ value }: { value: unknown }): unknown => {
  const text = String(value).toLowerCase();
  return text === 'true' ? true : text === 'false' ? false : value;
};

/** A comma list, items trimmed, empty items dropped. */
export const toList = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : value;

/** Rules on a number's form: when one fails, the range rules that also fail on NaN say nothing more. */
const NUMBER_RULES = ['isInt', 'isNumber'];

/**
 * class-validator's messages begin with the property name: the variable's name stands in front instead. A value
 * that is not a number is named with what was given (a number is never a secret); other values never are.
 */
function problem(type: ConfigClass, error: ValidationError, env: Environment): string {
  const name = variables.get(type)?.get(error.property) ?? error.property;
  const constraints = error.constraints ?? {};
  const notNumber = NUMBER_RULES.filter((rule) => rule in constraints);
  const rules = notNumber.length ? notNumber : Object.keys(constraints);
  const texts = rules
    .map((rule) => constraints[rule])
    .map((text) => (text.startsWith(`${error.property} `) ? text.slice(error.property.length + 1) : text));
  const given = notNumber.length && env[name] !== undefined ? ` (given: ${JSON.stringify(env[name])})` : '';
  return `${name}: ${texts.join(', ')}${given}`;
}

/** A namespace read from `env`, and what is wrong with it (one line per bad variable, naming it). */
export function checkConfig<T extends object>(
  type: ConfigClass<T>,
  env: Environment,
  defaults: Environment = {},
): { config: T; problems: string[] } {
  const present = { ...defaults, ...Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== '')) };
  // only declared variables are read; an unset one keeps its default (the property's initial value)
  const config = plainToInstance(type, present, { excludeExtraneousValues: true, exposeUnsetFields: false });
  return { config, problems: validateSync(config).map((error) => problem(type, error, present)) };
}

/**
 * Reads and validates one namespace from `env` (an empty variable counts as unset; `defaults` fill
 * variables whose default belongs to the service, such as PORT). A bad variable throws an Error naming it.
 */
export function readConfig<T extends object>(type: ConfigClass<T>, env: Environment, defaults: Environment = {}): T {
  const { config, problems } = checkConfig(type, env, defaults);
  if (problems.length) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return config;
}
