import { CommonModule, HistoryModule, MessagingModule } from '@app/common';
import { Module } from '@nestjs/common';
import { ConfigurationModule } from './configuration/configuration.module';
import { MAIN_SERVICE } from './main-service.manifest';
import { MessageModule } from './message/message.module';
import { SnapshotModule } from './snapshot/snapshot.module';
import { CONFIGURATION_RESOURCES } from './configuration/configuration.resources';
import { MESSAGE_RESOURCES } from './message/message.resources';
import { SNAPSHOT_RESOURCES } from './snapshot/snapshot.resources';

/** Every resource of the service, for the tenant-wide history view. */
const RESOURCES = [...CONFIGURATION_RESOURCES, ...MESSAGE_RESOURCES, ...SNAPSHOT_RESOURCES].map((registration) => registration.resource);

@Module({
  imports: [
    CommonModule.forRoot(MAIN_SERVICE),
    MessagingModule.forService(MAIN_SERVICE),
    ConfigurationModule,
    MessageModule,
    SnapshotModule,
    HistoryModule.register(RESOURCES),
  ],
})
export class AppModule {}
