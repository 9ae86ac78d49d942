import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';

/** The `data` of an envelope: a schema class, a primitive, or an array of either. */
export type DataShape = Type<unknown> | [Type<unknown>] | 'number' | 'boolean' | 'string' | 'null';

export interface EnvelopeDoc {
  data: DataShape;
  /** Schema of `extraData` when the operation fills it. */
  extra?: Record<string, object>;
  description?: string;
  example?: unknown;
}

/** `data` is null whenever `status` is not 200 (failures come with HTTP 200 too), so it is nullable in every envelope. */
function dataSchema(shape: DataShape): Record<string, unknown> {
  if (shape === 'null') return { type: 'object', nullable: true, example: null };
  if (typeof shape === 'string') return { type: shape, nullable: true };
  if (Array.isArray(shape)) return { type: 'array', nullable: true, items: { $ref: getSchemaPath(shape[0]) } };
  // the record or null: `type` beside `nullable` (code generators reject `nullable` alone); allOf keeps the
  // record's own type for generators (`anyOf` with a null schema would turn it into a wrapper type in several)
  return { type: 'object', nullable: true, allOf: [{ $ref: getSchemaPath(shape) }] };
}

const models = (shape: DataShape): Type<unknown>[] => (typeof shape === 'string' ? [] : Array.isArray(shape) ? [shape[0]] : [shape]);

/** Documents the envelope with a typed `data` (and `extraData` where the operation has keys). */
export function ApiEnvelope(doc: EnvelopeDoc): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(...models(doc.data)),
    ApiOkResponse({
      description: doc.description ?? 'The envelope; check `status` in the body (200: success).',
      schema: {
        type: 'object',
        required: ['timestamp', 'status', 'error', 'localizedError', 'path', 'extraData', 'data'],
        properties: {
          timestamp: { type: 'integer', format: 'int64', example: 1763800000000 },
          status: {
            type: 'integer',
            description: '200 on success; otherwise the failure (see the examples and the other responses)',
            example: 200,
          },
          error: { type: 'string', nullable: true, example: null },
          localizedError: { type: 'string', nullable: true, example: null },
          path: { type: 'string', nullable: true, example: null },
          extraData: doc.extra ? { type: 'object', properties: doc.extra as never } : { type: 'object', example: {} },
          data: doc.example === undefined ? dataSchema(doc.data) : { ...dataSchema(doc.data), example: doc.example },
        },
      },
    }),
  );
}
