import { CrudModule } from '@app/common';
import { Module } from '@nestjs/common';
import { MESSAGE_RESOURCES } from './message.resources';

/** /main-service/system-api/message/...: 14 resources with the standard 8 operations each (notification-user has 2 more). */
@Module({ imports: [CrudModule.register(MESSAGE_RESOURCES)] })
export class MessageModule {}
