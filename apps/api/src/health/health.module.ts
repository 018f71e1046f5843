import { Module } from '@nestjs/common';
import { DatabasePing } from './database-ping';
import { HealthController } from './health.controller';

@Module({
  controllers: [HealthController],
  providers: [DatabasePing],
})
export class HealthModule {}
