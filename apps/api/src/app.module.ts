import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule, ScopesModule } from './auth/auth.module';
import { APP_CONFIG, AppConfig } from './config/config';
import { DatabaseModule } from './database/database.module';
import { DatabaseTarget } from './database/database.options';
import { ENTITIES } from './entities';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './observability/metrics.module';
import { DrainState } from './http/drain';
import { OrdersModule } from './orders/orders.module';
import { PetsModule } from './pets/pets.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, database: DatabaseTarget): DynamicModule {
    return {
      module: AppModule,
      global: true, // APP_CONFIG and DrainState are needed by feature modules
      imports: [
        MetricsModule.forRoot(config), // global: every feature counts into it
        DatabaseModule.forRoot(database, config.database.poolSize, ENTITIES),
        AuthModule,
        RateLimitModule.forRoot(config), // after AuthModule: its guard needs the key
        ScopesModule, // after RateLimitModule: a 403 is counted and carries the RateLimit fields
        PetsModule,
        OrdersModule,
        HealthModule,
      ],
      providers: [{ provide: APP_CONFIG, useValue: config }, DrainState],
      exports: [APP_CONFIG, DrainState],
    };
  }
}
