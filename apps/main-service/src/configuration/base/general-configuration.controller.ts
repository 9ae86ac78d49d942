import { ApiTag, clientAddressOf, Operation } from '@app/common';
import { Controller, Get, Req } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { Request } from 'express';
import { MainServiceConfig } from '../../main-service.config';

class CloudServiceNodeInfo {
  @ApiProperty({ example: 'cn-east-1' }) name: string;
  @ApiProperty({ example: 'https://east.example.com' }) domain: string;
  @ApiProperty({ example: 'cn-east' }) region: string;
}

class CloudServiceInfo {
  @ApiProperty({ type: [CloudServiceNodeInfo] }) nodes: CloudServiceNodeInfo[];
  @ApiProperty({ example: 'https://east.example.com' }) recommendedDomain: string;
}

@ApiTag('configuration: base', "General client configuration: the caller's address and the cloud-service nodes to use.")
@Controller('main-api/v1/general/configuration/base')
export class GeneralConfigurationController {
  constructor(private readonly config: MainServiceConfig) {}

  @Get('getClientIp')
  @Operation({
    summary: "The caller's address",
    description:
      'X-Forwarded-For is honoured only through proxies trusted by TRUST_PROXY, and only when it holds an IPv4 or IPv6 address; otherwise the address of the connection.',
    response: { data: 'string', example: '203.0.113.7' },
  })
  getClientIp(@Req() request: Request): string {
    return clientAddressOf(request) ?? '';
  }

  @Get('getCloudServiceInfo')
  @Operation({
    summary: 'Cloud-service nodes and the recommended domain (from CLOUD_SERVICE_NODES)',
    description: 'The recommended domain is the first configured node.',
    response: { data: CloudServiceInfo },
  })
  getCloudServiceInfo(): CloudServiceInfo {
    const nodes = this.config.cloudServiceNodes;
    return { nodes, recommendedDomain: nodes[0].domain };
  }
}
