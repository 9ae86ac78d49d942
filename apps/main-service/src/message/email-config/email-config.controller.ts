import { CrudController, CrudService, ResourceController } from '@app/common';
import { Inject } from '@nestjs/common';
import { AddressGuard } from '../delivery/address-guard';
import { DocumentSecretRule, guardedSenderConfig, SenderConfigRules } from '../sender-config-writes';
import { EmailConfig, PASSWORD_BOUND_FIELDS } from './email-config.entity';
import { emailConfigResource as resource } from './email-config.resource';

const rules: SenderConfigRules<EmailConfig> = {
  idField: 'emailConfigId',
  destinationField: 'host',
  hostOf: (host) => (typeof host === 'string' ? host : undefined),
  boundFields: PASSWORD_BOUND_FIELDS,
  secretField: 'password',
  clearedSecret: null,
};

/**
 * The standard operations; save and updateById refuse an internal `host`, and an update that changes where,
 * how or as whom the login goes (PASSWORD_BOUND_FIELDS) without giving the password clears the stored one.
 */
@ResourceController(resource)
@DocumentSecretRule(rules)
export class EmailConfigController extends CrudController(resource) {
  constructor(@Inject(resource.serviceToken) crud: CrudService<EmailConfig>, guard: AddressGuard) {
    super(guardedSenderConfig(crud, guard, rules));
  }
}
