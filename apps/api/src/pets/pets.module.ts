import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { PetEntity } from './pet.entity';
import { PetsController } from './pets.controller';
import { PetCursors } from './pet-cursors';
import { PetsService } from './pets.service';

@Module({
  imports: [TypeOrmModule.forFeature([PetEntity]), IdempotencyModule],
  controllers: [PetsController],
  providers: [PetsService, PetCursors],
})
export class PetsModule {}
