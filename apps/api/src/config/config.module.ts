import { DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import type { AppConfig } from './config';

/**
 * `ConfigService<AppConfig, true>` with its typed getter. loadConfig read and validated everything before the
 * app is built (the entry point needs the database first; tests pass their own environment): nothing is read here.
 */
export function configModule(config: AppConfig): Promise<DynamicModule> {
  return ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validatePredefined: false, skipProcessEnv: true, load: [() => config] });
}
