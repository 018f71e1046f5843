import { ConfigModule } from '@nestjs/config';
import type { AppConfig } from './config';

/** ConfigService<AppConfig, true> of what loadConfig already read (the entry point needs the database first): nothing is read here. */
export function configModule(config: AppConfig) {
  return ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, validatePredefined: false, skipProcessEnv: true, load: [() => config] });
}
