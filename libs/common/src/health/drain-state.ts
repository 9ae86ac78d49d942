import { Injectable } from '@nestjs/common';

/** Set when the service starts shutting down: readiness answers 503 from then on, before anything closes. */
@Injectable()
export class DrainState {
  private draining = false;

  begin(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }
}
