import { Operation, RequiredQuery, validationPipe } from '@app/common';
import { Body, Controller, Get, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DataAcquisitionServer } from '../registry/data-acquisition-server/data-acquisition-server.entity';
import { Caller, DeviceOperation } from '../token/device-operation';
import { DeviceCaller, DeviceTokenService, TokenKey } from '../token/device-token.service';
import { clientAddressOf } from '../token/client-address';
import { withRetryAfter } from '../token/retry-after';
import { SECRET_DESCRIPTION, TOKEN_CALL_FAILURES, TOKEN_KEY_DESCRIPTION } from '../token/token-docs';
import { InternalIpUpdate } from './device-api.dto';
import { DeviceRegistry } from './device-registry';

@ApiTags('device / data-acquisition-server')
@Controller('main-api/device/data-acquisition-server')
export class DataAcquisitionServerController {
  constructor(
    private readonly registry: DeviceRegistry,
    private readonly tokens: DeviceTokenService,
  ) {}

  @Get('getGenerationTokenKeyByDataAcquisitionServerNo')
  @Operation({
    summary: 'Issue a server token for a server number and its provisioning secret',
    description: TOKEN_KEY_DESCRIPTION,
    public: true,
    credentials: SECRET_DESCRIPTION,
    response: { data: TokenKey },
    failures: TOKEN_CALL_FAILURES,
  })
  getGenerationTokenKey(
    @RequiredQuery('dataAcquisitionServerNo', 'The server number') no: string,
    @RequiredQuery('secret', 'The provisioning secret of the server') secret: string,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    return withRetryAfter(response, this.tokens.issue('server', no, secret, clientAddressOf(request)));
  }

  @Post('listByDataAcquisitionServerNo')
  @DeviceOperation('server', {
    summary: "The calling server's registry record, as a list of one",
    description: 'No body needed.',
    response: { data: [DataAcquisitionServer] },
  })
  listByServerNo(@Caller() caller: DeviceCaller) {
    return [caller.record as DataAcquisitionServer]; // read by the token check already
  }

  @Put('updateInternalIpByDataAcquisitionServerNo')
  @DeviceOperation('server', {
    summary: "Store the server's internal IP address (IPv4 or IPv6)",
    description: 'An address that is not IPv4 or IPv6 is refused with status 400 and nothing is stored.',
    response: { data: 'boolean', example: true },
  })
  @ApiBody({ type: InternalIpUpdate })
  updateInternalIp(@Caller() caller: DeviceCaller, @Body(validationPipe(InternalIpUpdate)) body: InternalIpUpdate) {
    return this.registry.updateInternalIp(caller.scope, caller.recordId, body.internalIp);
  }
}
