import { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AppException } from '../http/app-exception';
import { BodyStatus } from '../http/body-status';
import { toValidationException } from '../http/validation';
import { TimeSlice } from './time-slice';

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
  if (body.length > MAX_BATCH_ROWS) throw AppException.validation(`Request body may contain at most ${MAX_BATCH_ROWS} rows`);
}

/**
 * Validates each row against the DTO with the same rules as a single save; collects per-row errors.
 * Tens of thousands of rows take seconds of CPU: the event loop gets a turn every few milliseconds.
 */
export async function validateRows<T extends object>(
  dto: Type<T>,
  rows: object[],
): Promise<{ valid: { index: number; row: T }[]; errors: RowError[] }> {
  const valid: { index: number; row: T }[] = [];
  const errors: RowError[] = [];
  const slice = new TimeSlice();
  for (const [index, plain] of rows.entries()) {
    await slice.pause();
    const row = plainToInstance(dto, plain, { enableImplicitConversion: false });
    const failures = await validate(row, { whitelist: true, forbidUnknownValues: true, validationError: { target: false, value: true } });
    if (failures.length) errors.push({ index, error: toValidationException(failures, `[${index}]`).message });
    else valid.push({ index, row });
  }
  return { valid, errors };
}

/** All-or-nothing batches: any invalid row refuses the whole batch, naming every bad row. */
export async function validateAllRows<T extends object>(dto: Type<T>, rows: object[]): Promise<T[]> {
  const { valid, errors } = await validateRows(dto, rows);
  if (errors.length)
    throw AppException.validation(
      errors
        .slice(0, 50)
        .map((e) => e.error)
        .join('; '),
    );
  return valid.map((v) => v.row);
}
