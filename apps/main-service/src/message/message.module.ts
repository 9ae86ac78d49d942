import { CrudModule } from '@app/common';
import { Module } from '@nestjs/common';
import { AddressGuardModule } from './delivery/address-guard';
import { DeliveryModule } from './delivery/delivery.module';
import { MESSAGE_RESOURCES } from './message.resources';

/**
 * /main-service/system-api/message/...: 14 resources with the standard 8 operations each (notification-user
 * has 2 more, the caller's inbox), and the delivery of the stored e-mails and SMS (to destinations AddressGuard allows).
 */
@Module({ imports: [AddressGuardModule, CrudModule.register(MESSAGE_RESOURCES), DeliveryModule] })
export class MessageModule {}
