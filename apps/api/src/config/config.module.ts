import { DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import type { AppConfig } from './app-config';

/**
 * The configuration in the app, through @nestjs/config: inject `ConfigService<AppConfig, true>` and read
 * it with the typed getter (`config.get('http', { infer: true })`), or inject APP_CONFIG for the whole.
 * It was read (`.env` included) and validated once by loadConfig, before the app is built: the entry
 * point needs the database settings first, and the tests pass environments of their own. So nothing is
 * read or validated again here, and process.env is not consulted.
 */
export function configModule(config: AppConfig): Promise<DynamicModule> {
  return ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validatePredefined: false, skipProcessEnv: true, load: [() => config] });
}
