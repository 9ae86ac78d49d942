import { ServiceUnavailableException } from '@nestjs/common';
import { BodyStatus } from './body-status';

/** A business or validation failure: HTTP 200 with `status` in the body (contract.md "The envelope"). */
export class AppException extends Error {
  constructor(
    readonly bodyStatus: number,
    message: string,
  ) {
    super(message);
    this.name = 'AppException';
  }

  static validation(message: string): AppException {
    return new AppException(BodyStatus.VALIDATION, message);
  }
}

/** HTTP 503 (body status 503) whose envelope says what is unavailable in `extraData` (readiness). */
export class UnavailableException extends ServiceUnavailableException {
  constructor(readonly extraData: Record<string, unknown>) {
    super('Service unavailable');
  }
}
