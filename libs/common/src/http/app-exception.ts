import { BodyStatus } from './body-status';

/** A business or validation failure: HTTP 200 with `status` in the body (DESIGN §4). */
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
