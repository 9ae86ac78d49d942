import { CrudController, CrudService, ResourceController } from '@app/common';
import { Inject } from '@nestjs/common';
import { AddressGuard, hostOfUrl } from '../delivery/address-guard';
import { DocumentSecretRule, guardedSenderConfig, SenderConfigRules } from '../sender-config-writes';
import { SECRET_BOUND_FIELDS, SmsConfig } from './sms-config.entity';
import { smsConfigResource as resource } from './sms-config.resource';

const rules: SenderConfigRules<SmsConfig> = {
  idField: 'smsConfigId',
  destinationField: 'endpoint',
  hostOf: (endpoint) => (typeof endpoint === 'string' && URL.canParse(endpoint) ? hostOfUrl(new URL(endpoint)) : undefined),
  boundFields: SECRET_BOUND_FIELDS,
  secretField: 'accessKeySecret',
  clearedSecret: '',
};

/**
 * The standard operations; save and updateById refuse an `endpoint` on an internal host, and an update that
 * changes where, how or for which account the secret is used (SECRET_BOUND_FIELDS) without giving the access
 * key secret clears the stored one (to empty: the column is NOT NULL), so the configuration sends nothing
 * until its secret is given again.
 */
@ResourceController(resource)
@DocumentSecretRule(rules)
export class SmsConfigController extends CrudController(resource) {
  constructor(@Inject(resource.serviceToken) crud: CrudService<SmsConfig>, guard: AddressGuard) {
    super(guardedSenderConfig(crud, guard, rules));
  }
}
