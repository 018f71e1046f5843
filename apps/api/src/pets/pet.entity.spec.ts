import { Pet, schemaOf } from '@petstore/contracts';
import { getMetadataArgsStorage } from 'typeorm';
import { PET_COLUMNS, PET_COLUMN_NAMES, PetEntity, PetRow, rowToPet } from './pet.entity';

const PET_FIELDS = Object.keys(schemaOf(Pet).properties);

describe('PetEntity, PET_COLUMNS and rowToPet against the contract', () => {
  it('the entity has exactly the fields of the contract class Pet', () => {
    const properties = getMetadataArgsStorage()
      .columns.filter((column) => column.target === PetEntity)
      .map((column) => column.propertyName);
    expect(properties).toEqual(PET_FIELDS);
  });

  it('the hot-path statements select every column of the entity', () => {
    expect(PET_COLUMNS).toBe('id, name, category_id, status');
  });

  it('rowToPet reads every selected column and gives every field of Pet, bigint text as numbers', () => {
    const row = Object.fromEntries(PET_COLUMN_NAMES.map((name) => [name, `value of ${name}`])) as unknown as PetRow;
    Object.assign(row, { id: '9007199254740991', category_id: '3' });
    const pet = rowToPet(row);
    expect(Object.keys(pet)).toEqual(PET_FIELDS);
    expect(pet).toEqual({ id: 9007199254740991, name: 'value of name', categoryId: 3, status: 'value of status' });
  });
});
