import { isDuplicateKeyError, LIVE, newId } from '@app/common';
import { Brackets, DataSource, SelectQueryBuilder } from 'typeorm';
import { Notification } from '../notification/notification.entity';
import { NotificationUser } from './notification-user.entity';

/** The caller: a user of a tenant. */
export interface InboxOwner {
  tenantId: string;
  username: string;
}

/**
 * One user's notifications: the notification-user rows of the user, and every notification of the
 * tenant for ALL users, which has no per-user row until the user reads it (then the read state is
 * stored as that user's row). A notification reaches users once it is PUBLISHED, live and its publishTime
 * (if set) has come; rows naming a notification that is not in the table (ids are not checked against it)
 * count as they always did.
 */
export class NotificationInbox {
  constructor(private readonly dataSource: DataSource) {}

  /** Unread: the user's unread rows of visible notifications, plus visible ALL-notifications without a row of the user. */
  async countUnread(owner: InboxOwner): Promise<number> {
    const now = Date.now();
    const [rows, broadcasts] = await Promise.all([this.unreadRows(owner, now).getCount(), this.unrowedBroadcasts(owner, now).getCount()]);
    return rows + broadcasts;
  }

  /**
   * Marks everything unread read: the user's unread rows (read = true, readTime = now, stamped), and a
   * read row written for each ALL-notification the user has none for. Answers how many of both.
   */
  async markAllRead(owner: InboxOwner): Promise<number> {
    const now = Date.now();
    const ids = (await this.unreadRows(owner, now).select('u.notificationUserId', 'id').getRawMany<{ id: string }>()).map((r) => r.id);
    let changed = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const result = await this.dataSource
        .createQueryBuilder()
        .update(NotificationUser)
        .set({ read: true, readTime: now, revision: () => 'revision + 1', lastModifiedUsername: owner.username, lastModifiedTime: now })
        .where({ tenantId: owner.tenantId, username: owner.username, deleteTime: LIVE, read: false })
        .andWhere('notification_user_id IN (:...ids)', { ids: ids.slice(i, i + 500) })
        .execute();
      changed += result.affected ?? 0;
    }
    const broadcasts = await this.unrowedBroadcasts(owner, now).select('n.notificationId', 'id').getRawMany<{ id: string }>();
    for (const { id } of broadcasts) if (await this.insertReadRow(owner, id, now)) changed++;
    return changed;
  }

  /** False when a row appeared meanwhile (a concurrent markAllRead of the same user): its key is unique. */
  private async insertReadRow(owner: InboxOwner, notificationId: string, now: number): Promise<boolean> {
    try {
      await this.dataSource.getRepository(NotificationUser).insert({
        tenantId: owner.tenantId,
        notificationUserId: newId(),
        notificationId,
        username: owner.username,
        read: true,
        readTime: now,
        revision: 1,
        createdUsername: owner.username,
        createdTime: now,
        lastModifiedUsername: owner.username,
        lastModifiedTime: now,
        deleteTime: LIVE,
      });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** The user's live unread rows whose notification is visible, or not in the table. */
  private unreadRows(owner: InboxOwner, now: number): SelectQueryBuilder<NotificationUser> {
    return this.dataSource
      .getRepository(NotificationUser)
      .createQueryBuilder('u')
      .leftJoin(Notification, 'n', 'n.tenantId = u.tenantId AND n.notificationId = u.notificationId')
      .where({ tenantId: owner.tenantId, username: owner.username, deleteTime: LIVE, read: false })
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
  private unrowedBroadcasts(owner: InboxOwner, now: number): SelectQueryBuilder<Notification> {
    return this.dataSource
      .getRepository(Notification)
      .createQueryBuilder('n')
      .where({ tenantId: owner.tenantId, deleteTime: LIVE, status: 'PUBLISHED', targetType: 'ALL' })
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
        { username: owner.username, live: LIVE },
      );
  }
}
