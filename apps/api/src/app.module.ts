import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from './auth/auth.module';
import { APP_CONFIG, AppConfig } from './config/config';
import { DATABASE_TARGET, DatabaseTarget, databaseOptions } from './database/database.options';
import { HealthModule } from './health/health.module';
import { OrdersModule } from './orders/orders.module';
import { PetsModule } from './pets/pets.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, database: DatabaseTarget): DynamicModule {
    return {
      module: AppModule,
      global: true, // APP_CONFIG and DATABASE_TARGET are needed by feature modules
      imports: [
        TypeOrmModule.forRoot({ ...databaseOptions(database, config.databasePoolSize), retryAttempts: 2, retryDelay: 1000 }),
        AuthModule,
        RateLimitModule.forRoot(config), // after AuthModule: its guard needs the key
        PetsModule,
        OrdersModule,
        HealthModule,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: DATABASE_TARGET, useValue: database },
      ],
      exports: [APP_CONFIG, DATABASE_TARGET],
    };
  }
}
