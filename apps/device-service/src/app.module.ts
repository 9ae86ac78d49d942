import { CommonModule } from '@app/common';
import { Module } from '@nestjs/common';
import { DeviceModule } from './device.module';
import { DEVICE_SERVICE } from './device-service.manifest';

@Module({
  imports: [CommonModule.forRoot(DEVICE_SERVICE), DeviceModule],
})
export class AppModule {}
