import { Operation, RequiredQuery, validationPipe } from '@app/common';
import { Body, Controller, Get, Post, Put, Res } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataAcquisitionServer } from '../registry/data-acquisition-server/data-acquisition-server.entity';
import { Caller, DeviceOperation } from '../token/device-operation';
import { DeviceCaller, DeviceTokenService, TokenKey } from '../token/device-token.service';
import { withRetryAfter } from '../token/retry-after';
import { SECRET_DESCRIPTION, TOKEN_KEY_DESCRIPTION } from '../token/token-docs';
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
  @Operation({ summary: 'Issue a server token for a server number and its provisioning secret', description: TOKEN_KEY_DESCRIPTION, public: true, publicAccess: SECRET_DESCRIPTION, response: { data: TokenKey } })
  getGenerationTokenKey(@RequiredQuery('dataAcquisitionServerNo', 'The server number') no: string, @RequiredQuery('secret', 'The provisioning secret of the server') secret: string, @Res({ passthrough: true }) response: Response) {
    return withRetryAfter(response, this.tokens.issue('server', no, secret));
  }

  @Post('listByDataAcquisitionServerNo')
  @DeviceOperation('server', { summary: "The calling server's registry record, as a list of one", description: 'No body needed.', response: { data: [DataAcquisitionServer] } })
  async listByServerNo(@Caller() caller: DeviceCaller) {
    return [await this.registry.server(caller.tenantId, caller.no)];
  }

  @Put('updateInternalIpByDataAcquisitionServerNo')
  @DeviceOperation('server', { summary: "Store the server's internal IP address (IPv4 or IPv6)", description: 'An address that is not IPv4 or IPv6 is refused with status 400 and nothing is stored.', response: { data: 'boolean', example: true } })
  @ApiBody({ type: InternalIpUpdate })
  updateInternalIp(@Caller() caller: DeviceCaller, @Body(validationPipe(InternalIpUpdate)) body: InternalIpUpdate) {
    return this.registry.updateInternalIp(caller.tenantId, caller.no, body.internalIp);
  }
}
