import { CommonModule } from '@app/common';
import { Module } from '@nestjs/common';
import { CONFIGURATION_ENTITIES } from './configuration/configuration.resources';
import { ConfigurationModule } from './configuration/configuration.module';
import { SAVE_MISSING_BODY_LIMIT, SAVE_MISSING_PATH } from './configuration/translation/save-missing';
import { MESSAGE_ENTITIES } from './message/message.resources';
import { MessageModule } from './message/message.module';
import { MIGRATIONS } from './migrations';
import { SNAPSHOT_ENTITIES } from './snapshot/snapshot.resources';
import { SnapshotModule } from './snapshot/snapshot.module';

export const MAIN_SERVICE = {
  prefix: 'main-service',
  title: 'main-service',
  description: 'Back-office API: message, configuration and snapshot groups. Every response is the envelope; check `status` in the body.',
  bodyLimits: { [SAVE_MISSING_PATH]: SAVE_MISSING_BODY_LIMIT },
};

@Module({
  imports: [
    CommonModule.forRoot({ name: 'main-service', defaultPort: 3000, entities: [...CONFIGURATION_ENTITIES, ...MESSAGE_ENTITIES, ...SNAPSHOT_ENTITIES], migrations: MIGRATIONS }),
    ConfigurationModule,
    MessageModule,
    SnapshotModule,
  ],
})
export class AppModule {}
