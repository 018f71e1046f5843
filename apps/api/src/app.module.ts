import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AuthModule } from './auth/auth.module';
import { BearerAuthGuard } from './auth/bearer-auth.guard';
import { ScopesGuard } from './auth/scopes.guard';
import { APP_CONFIG, AppConfig } from './config/config';
import { configModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { DatabaseTarget } from './database/database.options';
import { ENTITIES } from './entities';
import { HealthModule } from './health/health.module';
import { loggerParams } from './logging/logger.options';
import { MetricsModule } from './observability/metrics.module';
import { DrainState } from './http/drain';
import { OrdersModule } from './orders/orders.module';
import { PetsModule } from './pets/pets.module';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { rateLimitModule } from './rate-limit/rate-limit.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, database: DatabaseTarget): DynamicModule {
    const rateLimited = config.rateLimit.perMinute > 0;
    return {
      module: AppModule,
      global: true, // APP_CONFIG and DrainState are needed by feature modules
      imports: [
        configModule(config), // ConfigService<AppConfig, true> for whoever prefers @nestjs/config's typed getter
        LoggerModule.forRoot(loggerParams(config)),
        MetricsModule.forRoot(config), // global: every feature counts into it
        DatabaseModule.forRoot(database, config.database.poolSize, ENTITIES),
        AuthModule,
        ...(rateLimited ? [rateLimitModule(config)] : []),
        PetsModule,
        OrdersModule,
        HealthModule,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        DrainState,
        // Nest runs APP_GUARD providers in listed order: the key, its rate limit, then scopes (so a 403 carries the RateLimit fields).
        ...[BearerAuthGuard, ...(rateLimited ? [RateLimitGuard] : []), ScopesGuard].map((guard) => ({ provide: APP_GUARD, useClass: guard })),
      ],
      exports: [APP_CONFIG, DrainState],
    };
  }
}
