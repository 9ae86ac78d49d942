import { BaseRecord } from '@app/common';
import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('configuration_translation')
@Index('uk_translation_key', ['tenantId', 'language', 'namespace', 'key', 'deleteTime'], { unique: true })
@Index('idx_translation_sort', ['tenantId', 'deleteTime', 'createdTime'])
export class Translation extends BaseRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  translationId: string;

  @ApiProperty({ example: 'en-US', description: 'BCP 47 language tag' })
  @Column({ type: 'varchar', length: 35 })
  language: string;

  @ApiProperty({ example: 'common' })
  @Column({ type: 'varchar', length: 64 })
  namespace: string;

  @ApiProperty({ example: 'button.save', description: 'Flat dotted key, may carry a plural suffix (_one, _other, ...)' })
  @Column({ type: 'varchar', length: 255 })
  key: string;

  @ApiProperty({ type: String, nullable: true, example: 'Save' })
  @Column({ type: 'text', nullable: true })
  value: string | null;

  @ApiProperty({ example: false, description: 'True for entries reported missing by a front end and not yet completed by an operator' })
  @Column({ type: 'boolean', default: false })
  draft: boolean;
}
