import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { Notification } from '../notification/notification.entity';
import { NOTIFICATION_LEVELS } from '../fields/message-values';
import { NotificationUser } from './notification-user.entity';

/** myPage's body: the caller's state to filter by, and the page (pageSize at most PAGE_SIZE_MAX). */
export class InboxPageQuery {
  @ApiPropertyOptional({
    type: 'boolean',
    nullable: true,
    example: false,
    description: 'Only read (true) or only unread (false) notifications; omitted or null: both',
  })
  @IsOptional()
  @IsBoolean()
  read?: boolean | null;

  @ApiPropertyOptional({
    type: 'boolean',
    nullable: true,
    example: false,
    description: 'Only archived (true) or only not archived (false) notifications; omitted or null: not archived',
  })
  @IsOptional()
  @IsBoolean()
  archived?: boolean | null;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 1000000000, example: 1, description: 'The page, from 1' })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  current: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 10, description: 'At most PAGE_SIZE_MAX' })
  @IsInt()
  @Min(1)
  pageSize: number;
}

/** One notification of the caller's inbox: the notification, and the caller's state of it. */
export class InboxNotification {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  notificationId: string;

  @ApiProperty({ example: 'Maintenance tonight' })
  title: string;

  @ApiProperty({ example: 'The service is unavailable from 22:00 to 23:00.' })
  content: string;

  @ApiProperty({ enum: NOTIFICATION_LEVELS, example: 'INFO' })
  level: string;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    example: 1767229200000,
    nullable: true,
    description: 'Epoch milliseconds; null for one published without a time',
  })
  publishTime: number | null;

  @ApiProperty({ example: false, description: 'Whether the caller has read it' })
  read: boolean;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    example: null,
    nullable: true,
    description: 'When the caller read it (epoch milliseconds); null while unread',
  })
  readTime: number | null;

  @ApiProperty({ example: false, description: 'Whether the caller has archived it' })
  archived: boolean;

  static of(this: void, found: Notification & { callerRow: NotificationUser | null }): InboxNotification {
    const row = found.callerRow;
    const { notificationId, title, content, level, publishTime } = found;
    return {
      notificationId,
      title,
      content,
      level,
      publishTime,
      read: row?.read ?? false,
      readTime: row?.readTime ?? null,
      archived: row?.archived ?? false,
    };
  }
}
