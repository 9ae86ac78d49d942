import { clientKeyOf, Operation, RequiredQuery } from '@app/common';
import { Get, Injectable, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CallerKind, DeviceRegistry, numberParam } from '../device-api/device-registry';
import { EXAMPLE_NUMBER, EXAMPLE_SECRET } from '../registry/registry-examples';
import { tokenCall } from './device-operation';
import { DeviceTokenService, TokenKey } from './device-token.service';
import { withRetryAfter } from './retry-after';
import { SECRET_DESCRIPTION, TOKEN_CALL_FAILURES, TOKEN_KEY_DESCRIPTION } from './token-docs';

/**
 * The base of the device and the server controller: their dependencies and the token call of their kind,
 * `getGenerationTokenKeyByDataAcquisition{Device|Server}No?dataAcquisition{Device|Server}No=&secret=`.
 */
export function TokenIssuingController(kind: CallerKind) {
  // a class decorator, so that the compiler records the constructor's parameter types for the subclasses' injection
  @Injectable()
  class TokenIssuing {
    constructor(
      protected readonly registry: DeviceRegistry,
      protected readonly tokens: DeviceTokenService,
    ) {}

    @Get(tokenCall(kind))
    @Operation({
      summary: `Issue a ${kind} token for a ${kind} number and its provisioning secret`,
      description: TOKEN_KEY_DESCRIPTION,
      public: true,
      credentials: SECRET_DESCRIPTION,
      response: { data: TokenKey },
      failures: TOKEN_CALL_FAILURES,
    })
    getGenerationTokenKey(
      @RequiredQuery(numberParam(kind), `The ${kind} number`, EXAMPLE_NUMBER[kind]) no: string,
      @RequiredQuery('secret', `The provisioning secret of the ${kind}`, EXAMPLE_SECRET) secret: string,
      @Req() request: Request,
      @Res({ passthrough: true }) response: Response,
    ) {
      return withRetryAfter(response, this.tokens.issue(kind, no, secret, clientKeyOf(request)));
    }
  }
  return TokenIssuing;
}
