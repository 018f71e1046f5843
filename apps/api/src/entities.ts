import { ApiKeyEntity } from './auth/api-key.entity';
import { IdempotencyKeyEntity } from './idempotency/idempotency-key.entity';
import { PetEntity } from './pets/pet.entity';

/**
 * Every TypeORM entity of the app: the tables' truth, which the schema-drift test compares with the
 * migrations. Listed here, at the app's root, so that database/ knows no feature.
 */
export const ENTITIES = [PetEntity, ApiKeyEntity, IdempotencyKeyEntity];
