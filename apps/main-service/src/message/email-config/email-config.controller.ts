import { CrudController, CrudService, ResourceController } from '@app/common';
import { Inject } from '@nestjs/common';
import { AddressGuard } from '../delivery/address-guard';
import { guardedSenderConfig } from '../sender-config-writes';
import { EmailConfig } from './email-config.entity';
import { emailConfigResource as resource } from './email-config.resource';

/**
 * The standard operations; save and updateById refuse an internal `host`, and an update that changes where
 * or as whom the login goes (host, port, secure, username) without giving the password clears the stored one.
 */
@ResourceController(resource)
export class EmailConfigController extends CrudController(resource) {
  constructor(@Inject(resource.serviceToken) crud: CrudService<EmailConfig>, guard: AddressGuard) {
    super(
      guardedSenderConfig(crud, guard, {
        idField: 'emailConfigId',
        destinationField: 'host',
        hostOf: (host) => (typeof host === 'string' ? host : undefined),
        boundFields: ['host', 'port', 'secure', 'username'],
        secretField: 'password',
        clearedSecret: null,
      }),
    );
  }
}
