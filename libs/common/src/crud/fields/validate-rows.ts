import { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AppException } from '../../http/app-exception';
import { BodyStatus } from '../../http/body-status';
import { keepConstraintInstances } from '../../http/constraint-instances';
import { toValidationException } from '../../http/validation';
import { Message, message } from '../../i18n/message';
import { TimeSlice } from '../../background/time-slice';
import { acceptedBody } from '../../http/compiled-validation';

export interface RowError {
  index: number;
  error: string;
}

/** Upper bound of rows in one import or batch call. */
export const MAX_BATCH_ROWS = 50_000;

/** The body of a batch operation must be a JSON array of objects, of bounded size. */
export function assertRowArray(body: unknown): asserts body is object[] {
  if (!Array.isArray(body) || body.some((r) => r === null || typeof r !== 'object' || Array.isArray(r)))
    throw new AppException(BodyStatus.TYPE_MISMATCH, 'Request body must be a JSON array of objects');
  if (body.length === 0) throw AppException.validation('Request body must contain at least one row');
  if (body.length > MAX_BATCH_ROWS)
    throw AppException.validation(message('Request body may contain at most {{max}} rows', { max: MAX_BATCH_ROWS }));
}

/**
 * Validates each row against the DTO with the same rules as a single save; collects per-row errors.
 * Tens of thousands of rows take seconds of CPU: the event loop gets a turn every few milliseconds.
 */
export async function validateRows<T extends object>(
  dto: Type<T>,
  rows: object[],
): Promise<{ valid: { index: number; row: T }[]; errors: RowError[] }> {
  const { valid, failures } = await checkRows(dto, rows);
  return { valid, errors: failures.map(({ index, failure }) => ({ index, error: failure.message })) };
}

/** validateRows with each bad row's failure as it is (its translatable clauses), paths prefixed by `prefixOf(index)`. */
export async function checkRows<T extends object>(dto: Type<T>, rows: object[], prefixOf = (index: number) => `[${index}]`) {
  keepConstraintInstances();
  const valid: { index: number; row: T }[] = [];
  const failures: { index: number; failure: AppException }[] = [];
  const slice = new TimeSlice();
  for (const [index, plain] of rows.entries()) {
    await slice.pause();
    // a row of a class with compiled rules that passes them; any other row, and every refusal, class-validator's
    const accepted = acceptedBody(dto, plain) as T | undefined;
    if (accepted) {
      valid.push({ index, row: accepted });
      continue;
    }
    const row = plainToInstance(dto, plain, { enableImplicitConversion: false });
    const errors = await validate(row, { whitelist: true, forbidUnknownValues: true, validationError: { target: true, value: true } });
    if (errors.length) failures.push({ index, failure: toValidationException(errors, prefixOf(index)) });
    else valid.push({ index, row });
  }
  return { valid, failures };
}

/** All-or-nothing batches: any invalid row refuses the whole batch, naming every bad row. */
export async function validateAllRows<T extends object>(dto: Type<T>, rows: object[]): Promise<T[]> {
  const { valid, failures } = await checkRows(dto, rows);
  const named = failures.slice(0, 50).map((f) => f.failure);
  const parts: Message[] = named.flatMap((f) => f.parts);
  const refused = named.flatMap((f) => f.refused);
  if (parts.length) throw AppException.validation(parts, refused);
  return valid.map((v) => v.row);
}
