import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { PetsController } from './pets.controller';
import { PetCursors } from './pet-cursors';
import { PetsRepository } from './pets.repository';
import { PetsService } from './pets.service';

@Module({
  imports: [IdempotencyModule],
  controllers: [PetsController],
  providers: [PetsService, PetsRepository, PetCursors],
})
export class PetsModule {}
