import { CreatePets1763769600000 } from './1763769600000-create-pets';
import { CreateApiKeys1763856000000 } from './1763856000000-create-api-keys';
import { CreateIdempotencyKeys1763942400000 } from './1763942400000-create-idempotency-keys';
import { CapPetIds1764028800000 } from './1764028800000-cap-pet-ids';
import { AddApiKeysLastDeprecatedCall1764115200000 } from './1764115200000-add-api-keys-last-deprecated-call';

/** Every migration, in order. Listed explicitly so the build needs no glob at run time. */
export const migrations = [
  CreatePets1763769600000,
  CreateApiKeys1763856000000,
  CreateIdempotencyKeys1763942400000,
  CapPetIds1764028800000,
  AddApiKeysLastDeprecatedCall1764115200000,
];
