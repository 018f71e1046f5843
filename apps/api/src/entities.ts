import { ApiKeyEntity } from './auth/api-key.entity';
import { IdempotencyKeyEntity } from './idempotency/idempotency-key.entity';
import { PetEntity } from './pets/pet.entity';

/** Every entity, the tables' truth (the drift test compares them with the migrations); here, so that database/ knows no feature. */
export const ENTITIES = [PetEntity, ApiKeyEntity, IdempotencyKeyEntity];
