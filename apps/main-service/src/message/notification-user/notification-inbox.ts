import { isDuplicateKeyError, LIVE, LiveRecordTable, TenantScope } from '@app/common';
import { Brackets, DataSource, In, SelectQueryBuilder } from 'typeorm';
import { Notification } from '../notification/notification.entity';
import { NotificationUser } from './notification-user.entity';

/** Rows marked read per statement (the length of its IN list). */
const MARK_CHUNK = 500;

/**
 * One user's notifications: the notification-user rows of the user, and every notification of the
 * tenant for ALL users, which has no per-user row until the user reads it (then the read state is
 * stored as that user's row). A notification reaches users once it is PUBLISHED, live and its publishTime
 * (if set) has come; rows naming a notification that is not in the table (ids are not checked against it)
 * count as they always did. The user is the scope's: its tenant and username.
 */
export class NotificationInbox {
  private readonly users: LiveRecordTable<NotificationUser>;
  private readonly notifications: LiveRecordTable<Notification>;

  constructor(dataSource: DataSource) {
    this.users = new LiveRecordTable(NotificationUser, 'notificationUserId', dataSource);
    this.notifications = new LiveRecordTable(Notification, 'notificationId', dataSource);
  }

  /** Unread: the user's unread rows of visible notifications, plus visible ALL-notifications without a row of the user. */
  async countUnread(scope: TenantScope): Promise<number> {
    const now = Date.now();
    const [rows, broadcasts] = await Promise.all([this.unreadRows(scope, now).getCount(), this.unrowedBroadcasts(scope, now).getCount()]);
    return rows + broadcasts;
  }

  /**
   * Marks everything unread read: the user's unread rows (read = true, readTime = now, stamped), and a
   * read row written for each ALL-notification the user has none for. Answers how many of both.
   */
  async markAllRead(scope: TenantScope): Promise<number> {
    const now = Date.now();
    const ids = (await this.unreadRows(scope, now).select('u.notificationUserId', 'id').getRawMany<{ id: string }>()).map((r) => r.id);
    let changed = 0;
    for (let i = 0; i < ids.length; i += MARK_CHUNK) {
      const unread = { username: scope.username, read: false, notificationUserId: In(ids.slice(i, i + MARK_CHUNK)) };
      changed += await this.users.updateRecords(scope, unread, { read: true, readTime: now }, undefined, now);
    }
    const broadcasts = await this.unrowedBroadcasts(scope, now).select('n.notificationId', 'id').getRawMany<{ id: string }>();
    for (const { id } of broadcasts) if (await this.insertReadRow(scope, id, now)) changed++;
    return changed;
  }

  /** False when a row appeared meanwhile (a concurrent markAllRead of the same user): its key is unique. */
  private async insertReadRow(scope: TenantScope, notificationId: string, now: number): Promise<boolean> {
    try {
      await this.users.insertRecords(scope, [{ notificationId, username: scope.username, read: true, readTime: now }], { now });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** The user's live unread rows whose notification is visible, or not in the table. */
  private unreadRows(scope: TenantScope, now: number): SelectQueryBuilder<NotificationUser> {
    return this.users
      .select(scope, { username: scope.username, read: false }, 'u')
      .leftJoin(Notification, 'n', 'n.tenantId = u.tenantId AND n.notificationId = u.notificationId')
      .andWhere(
        new Brackets((qb) =>
          qb
            .where('n.notificationId IS NULL')
            .orWhere('(n.deleteTime = :live AND n.status = :published AND (n.publishTime IS NULL OR n.publishTime <= :now))', {
              live: LIVE,
              published: 'PUBLISHED',
              now,
            }),
        ),
      );
  }

  /** The tenant's visible ALL-notifications the user has no live row for. */
  private unrowedBroadcasts(scope: TenantScope, now: number): SelectQueryBuilder<Notification> {
    return this.notifications
      .select(scope, { status: 'PUBLISHED', targetType: 'ALL' }, 'n')
      .andWhere('(n.publishTime IS NULL OR n.publishTime <= :now)', { now })
      .andWhere(
        (qb) =>
          'NOT EXISTS ' +
          qb
            .subQuery()
            .select('1')
            .from(NotificationUser, 'r')
            // the outer alias's columns by name: the subquery maps only its own alias's properties
            .where('r.tenantId = n.tenant_id AND r.notificationId = n.notification_id AND r.username = :username AND r.deleteTime = :live')
            .getQuery(),
        { username: scope.username, live: LIVE },
      );
  }
}
