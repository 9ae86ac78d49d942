import { CrudController, CrudService, ResourceController } from '@app/common';
import { Inject } from '@nestjs/common';
import { AddressGuard, hostOfUrl } from '../delivery/address-guard';
import { guardedSenderConfig } from '../sender-config-writes';
import { SmsConfig } from './sms-config.entity';
import { smsConfigResource as resource } from './sms-config.resource';

/**
 * The standard operations; save and updateById refuse an `endpoint` on an internal host, and an update that
 * changes the endpoint without giving the access key secret clears the stored one (to empty: the column is
 * NOT NULL), so the configuration sends nothing until its secret is given again.
 */
@ResourceController(resource)
export class SmsConfigController extends CrudController(resource) {
  constructor(@Inject(resource.serviceToken) crud: CrudService<SmsConfig>, guard: AddressGuard) {
    super(
      guardedSenderConfig(crud, guard, {
        idField: 'smsConfigId',
        destinationField: 'endpoint',
        hostOf: (endpoint) => (typeof endpoint === 'string' && URL.canParse(endpoint) ? hostOfUrl(new URL(endpoint)) : undefined),
        boundFields: ['endpoint'],
        secretField: 'accessKeySecret',
        clearedSecret: '',
      }),
    );
  }
}
