import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtension, ApiExtraModels, ApiOkResponse } from '@nestjs/swagger';

/** The `data` of an envelope: a schema class, a primitive, or an array of a schema class. */
export type DataShape = Type<unknown> | [Type<unknown>] | 'integer' | 'number' | 'boolean' | 'string';

export interface EnvelopeDoc {
  data: DataShape;
  /** Schema of `extraData` when the operation fills it. */
  extra?: Record<string, object>;
  /**
   * Name of that `extraData` shape (e.g. `Page`): its schema is `<name>Extra`, the envelope's
   * `<data><name>Result` (records: `OrderItemPageResult`). Default: its keys, capitalised.
   */
  extraName?: string;
  description?: string;
  /** `data` of the success example (default: one built from the schema). */
  example?: unknown;
}

/** The operation extension that hands the success example's `data` to the document finaliser (removed there). */
export const DATA_EXAMPLE_EXTENSION = 'x-data-example';

/** Suffix of the nullable copy of a record schema, which `data` of a record's envelope references. */
export const OR_NULL = 'OrNull';

// a schema is plain JSON
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = Record<string, any>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Envelope schemas by name, shared by every operation that answers the same shape (so generated clients
 * get one class per shape, named here, never one per operation). The finaliser adds the ones a document uses.
 */
const ENVELOPES = new Map<string, Schema>();

export function envelopeSchema(name: string): Schema | undefined {
  return ENVELOPES.get(name);
}

function register(name: string, schema: Schema): void {
  const known = ENVELOPES.get(name);
  if (known && JSON.stringify(known) !== JSON.stringify(schema))
    throw new Error(`Two different envelope shapes are both named ${name}: give one an extraName`);
  ENVELOPES.set(name, schema);
}

/**
 * A named schema of an answer that is not the envelope (OperationDoc.raw): added to a document that references it,
 * like the envelopes. Returns its reference.
 */
export function namedAnswerSchema(name: string, schema: Schema): { $ref: string } {
  register(name, schema);
  return ref(name);
}

/**
 * `data` is null whenever `status` is not 200 (failures come with HTTP 200 too), so it is nullable in every
 * envelope. A record is referenced through its nullable copy (`<Record>OrNull`, made by the finaliser):
 * `nullable` beside `allOf` would still demand the record, and validators following OpenAPI 3.0.3 refuse null.
 */
function dataPart(shape: DataShape, extraName: string | undefined): { name: string; schema: Schema } {
  if (shape === 'integer') return { name: 'Integer', schema: { type: 'integer', format: 'int64', nullable: true } };
  if (typeof shape === 'string') return { name: capitalised(shape), schema: { type: shape, nullable: true } };
  if (Array.isArray(shape))
    return { name: `${shape[0].name}${extraName ? '' : 'List'}`, schema: { type: 'array', nullable: true, items: ref(shape[0].name) } };
  return { name: shape.name, schema: ref(`${shape.name}${OR_NULL}`) };
}

/** The named envelope schema of an operation's answer (registered once per name). */
function envelopeName(doc: EnvelopeDoc): string {
  const extraName = doc.extra ? (doc.extraName ?? Object.keys(doc.extra).map(capitalised).join('')) : undefined;
  const data = dataPart(doc.data, extraName);
  const name = `${data.name}${extraName ?? ''}Result`;
  if (extraName) register(`${extraName}Extra`, { type: 'object', properties: doc.extra });
  register(name, {
    type: 'object',
    description: 'The envelope; check `status` (200: success). On a failure `data` is null and `error` says why.',
    required: ['timestamp', 'status', 'error', 'localizedError', 'path', 'extraData', 'data'],
    properties: {
      timestamp: { type: 'integer', format: 'int64', description: 'Epoch milliseconds of the answer', example: 1763800000000 },
      status: { type: 'integer', description: '200 on success; otherwise the failure (see the operation)', example: 200 },
      error: { type: 'string', nullable: true, example: null },
      localizedError: { type: 'string', nullable: true, example: null },
      path: { type: 'string', nullable: true, description: 'The request path on a failure, null on success', example: null },
      extraData: extraName ? ref(`${extraName}Extra`) : { type: 'object', example: {} },
      data: data.schema,
    },
  });
  return name;
}

const models = (shape: DataShape): Type<unknown>[] => (typeof shape === 'string' ? [] : Array.isArray(shape) ? [shape[0]] : [shape]);

/** Documents the answer as the named envelope of its `data` (and `extraData` where the operation has keys). */
export function ApiEnvelope(doc: EnvelopeDoc): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(...models(doc.data)),
    ApiOkResponse({
      description: doc.description ?? 'The envelope; check `status` in the body (200: success).',
      schema: ref(envelopeName(doc)),
    }),
    ...(doc.example === undefined ? [] : [ApiExtension(DATA_EXAMPLE_EXTENSION, doc.example)]),
  );
}
