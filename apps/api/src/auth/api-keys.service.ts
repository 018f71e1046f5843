import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ApiKeyPrincipal, generateApiKey, hashApiKey } from './api-key';

/**
 * Knows the accepted API keys, by digest only. Keys come from `API_KEYS`; in development a start
 * with no key creates one and prints it once.
 */
@Injectable()
export class ApiKeysService implements OnModuleInit {
  private readonly logger = new Logger('ApiKeys');
  private readonly byDigest = new Map<string, ApiKeyPrincipal>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onModuleInit(): void {
    this.config.apiKeys.forEach((key, index) => this.accept(key, { keyId: `env-${index + 1}`, label: `API_KEYS entry ${index + 1}` }));
    if (this.byDigest.size > 0) return;
    if (this.config.nodeEnv === 'production') {
      throw new Error('No API key is configured: set API_KEYS to a comma-separated list of keys before starting in production');
    }
    const key = generateApiKey();
    this.accept(key, { keyId: 'dev-1', label: 'development key' });
    this.logger.warn(`No API key was configured, so one was created for this run. Use it as "Authorization: Bearer ${key}"`);
  }

  authenticate(token: string): ApiKeyPrincipal | undefined {
    return this.byDigest.get(hashApiKey(token));
  }

  private accept(key: string, principal: ApiKeyPrincipal): void {
    this.byDigest.set(hashApiKey(key), principal);
  }
}
