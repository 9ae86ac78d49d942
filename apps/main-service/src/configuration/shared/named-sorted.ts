import { Int, Text } from '@app/common';
import { ApiProperty } from '@nestjs/swagger';
import { Column } from 'typeorm';
import { BaseRecord } from '@app/common';

/** `name` and `sort`, which every dictionary and value-set record has. */
export abstract class NamedSortedRecord extends BaseRecord {
  @ApiProperty({ type: String, nullable: true, example: 'Display name' })
  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @ApiProperty({ example: 1 })
  @Column({ type: 'int', default: 0 })
  sort: number;
}

export abstract class NamedSortedFields {
  @Text({ max: 255, example: 'Display name' })
  name?: string | null;

  @Int({ example: 1, description: 'Ordering value (ascending)' })
  sort?: number;
}
