import { Test } from '@nestjs/testing';
import type { AppConfig } from '../config/config';
import { APP_CONFIG, ConfigError } from '../config/config';
import { generateApiKey, hashApiKey } from './api-key';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyChangeListener } from './api-key-changes';
import { ApiKeysRepository, IssuedApiKey, NewApiKey, StoredKey } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

const ENVIRONMENT_KEY = 'environment-key-Vq7Lx2Rm9Tz4Kp8Wc3Nb6HjYs5Gd';

/**
 * The service with a fake repository behind a real cache, and a listener that listens to nothing;
 * API_KEYS holds one key unless no usable key is to exist anywhere.
 */
async function setup(nodeEnv: AppConfig['nodeEnv'], stored: Record<string, StoredKey> = {}, usable: 'exists' | 'missing' = 'exists') {
  const calls = { loads: [] as string[], firstKey: [] as (NewApiKey | undefined)[], usage: [] as Map<string, Date>[] };
  const repository = {
    findByDigest: (digest: string) => (calls.loads.push(digest), Promise.resolve(stored[digest])),
    firstKey: (input: NewApiKey | undefined) => {
      calls.firstKey.push(input);
      if (usable === 'exists' || !input) return Promise.resolve(usable);
      return Promise.resolve({ key: 'pet_new', record: { id: '1' } } as IssuedApiKey);
    },
    recordUsage: (times: Map<string, Date>) => (calls.usage.push(times), Promise.resolve()),
  } as unknown as ApiKeysRepository;
  const cache = new ApiKeyCache((digest) => repository.findByDigest(digest), {
    capacity: 10,
    knownTtlMs: 3000,
    unknownTtlMs: 3000,
    maxConcurrentLoads: 1,
    maxWaitingLoads: 1,
  });
  const changes = { start: () => Promise.resolve(), stop: () => Promise.resolve() };
  const config = { nodeEnv, auth: { apiKeys: usable === 'exists' ? [ENVIRONMENT_KEY] : [] }, productionDemands: [] };
  const module = await Test.createTestingModule({
    providers: [
      ApiKeysService,
      { provide: APP_CONFIG, useValue: config },
      { provide: ApiKeysRepository, useValue: repository },
      { provide: ApiKeyCache, useValue: cache },
      { provide: ApiKeyChangeListener, useValue: changes },
    ],
  }).compile();
  return { service: module.get(ApiKeysService), calls };
}

describe('ApiKeysService', () => {
  it('accepts an API_KEYS entry with every scope, and an issued key through the cache, recording its use', async () => {
    const key = generateApiKey();
    const { service, calls } = await setup('test', {
      [hashApiKey(key)]: { principal: { keyId: '7', label: 'ci', scopes: ['pets:read'] }, expiresAt: null, revokedAt: null },
    });
    await service.onModuleInit();
    expect(await service.authenticate(ENVIRONMENT_KEY)).toMatchObject({
      keyId: `env-${hashApiKey(ENVIRONMENT_KEY).slice(0, 16)}`,
      scopes: ['pets:read', 'pets:write', 'orders:read'],
    });
    expect(service.classify(key)).toBe('lookup');
    expect(await service.authenticate(key)).toEqual({ keyId: '7', label: 'ci', scopes: ['pets:read'] });
    expect(service.classify(key)).toBe('known');
    // Nothing shaped unlike a key reaches the database.
    expect(await service.authenticate('not-a-key')).toBeUndefined();
    expect(service.classify('not-a-key')).toBe('refused');
    await service.beforeApplicationShutdown();
    expect(calls.loads).toEqual([hashApiKey(key)]);
    expect([...calls.usage[0].keys()]).toEqual(['7']);
  });

  it('refuses a production start with no usable key, naming the fix; development creates one', async () => {
    const production = await setup('production', {}, 'missing');
    await expect(production.service.onModuleInit()).rejects.toThrow(ConfigError);
    await expect(production.service.onModuleInit()).rejects.toThrow('No API key exists: create one with `pnpm keys create');
    expect(production.calls.firstKey[0]).toBeUndefined();

    const development = await setup('development', {}, 'missing');
    const printed = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    await development.service.onModuleInit();
    expect(printed.mock.calls[0][0]).toContain('Authorization: Bearer pet_new');
    printed.mockRestore();
    await development.service.beforeApplicationShutdown();
    expect(development.calls.firstKey).toEqual([{ label: 'development key', scopes: ['pets:read', 'pets:write', 'orders:read'] }]);
  });
});
