import { CommonModule, MessagingModule } from '@app/common';
import { Module } from '@nestjs/common';
import { ConfigurationModule } from './configuration/configuration.module';
import { MAIN_SERVICE } from './main-service.manifest';
import { MessageModule } from './message/message.module';
import { SnapshotModule } from './snapshot/snapshot.module';

@Module({
  imports: [
    CommonModule.forRoot(MAIN_SERVICE),
    MessagingModule.forService(MAIN_SERVICE),
    ConfigurationModule,
    MessageModule,
    SnapshotModule,
  ],
})
export class AppModule {}
