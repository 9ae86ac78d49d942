import { isDuplicateKeyError, LIVE, LiveRecordTable, retryingConcurrentTwins, TenantScope, WithExtra } from '@app/common';
import { Brackets, DataSource, EntityManager, In, SelectQueryBuilder } from 'typeorm';
import { Notification } from '../notification/notification.entity';
import { InboxNotification, InboxPageQuery } from './inbox-notification';
import { NotificationUser } from './notification-user.entity';

/** Rows marked read per statement (the length of its IN list). */
const MARK_CHUNK = 500;

/** The caller an inbox call acts for: the scope's tenant and username, and the roles its token carries. */
export interface InboxCaller {
  scope: TenantScope;
  roles: readonly string[];
}

/** A notification that reaches the caller, with the caller's row when there is one. */
type Reached = Notification & { callerRow: NotificationUser | null };

/** One change of the caller's state of one notification (markRead, markUnread, archive, unarchive). */
export interface InboxMark {
  field: 'read' | 'archived';
  value: boolean;
}

/** SQL booleans as the columns store them (SQLite's driver binds no JavaScript booleans). */
const YES = 1;
const NO = 0;

/**
 * One user's notifications. A notification reaches a caller once it is PUBLISHED, live and its publishTime (if
 * set) has come, when it is for ALL users of the tenant, for a role the caller's token carries (ROLE with that
 * targetRole), or for listed users (USER) with a live notification-user row of the caller. That rule
 * (`reaching`) is the one of every inbox call. The caller's row holds the read and archived state; a
 * notification for ALL or a role has none until the caller changes its state (then it is written), and
 * without one it is unread and not archived. Rows naming a notification that is not (or no longer) there
 * reach nobody.
 */
export class NotificationInbox {
  private readonly users: LiveRecordTable<NotificationUser>;
  private readonly notifications: LiveRecordTable<Notification>;

  constructor(dataSource: DataSource) {
    this.users = new LiveRecordTable(NotificationUser, 'notificationUserId', dataSource);
    this.notifications = new LiveRecordTable(Notification, 'notificationId', dataSource);
  }

  /** The notifications that reach the caller, unread and not archived. */
  countUnread(caller: InboxCaller): Promise<number> {
    return this.unreadInbox(caller, Date.now()).getCount();
  }

  /**
   * Marks every notification counted by countUnread read: the caller's rows (read = true, readTime = now, stamped), and
   * a read row written for each one the caller has none for. Answers how many of both.
   */
  async markAllRead(caller: InboxCaller): Promise<number> {
    const { scope } = caller;
    const now = Date.now();
    const unread = await this.unreadInbox(caller, now)
      .select('n.notificationId', 'notificationId')
      .addSelect('r.notificationUserId', 'rowId')
      .getRawMany<{ notificationId: string; rowId: string | null }>();
    const rowIds = unread.flatMap((u) => (u.rowId === null ? [] : [u.rowId]));
    let changed = 0;
    for (let i = 0; i < rowIds.length; i += MARK_CHUNK) {
      const still = { username: scope.username, read: false, notificationUserId: In(rowIds.slice(i, i + MARK_CHUNK)) };
      changed += await this.users.updateRecords(scope, still, { read: true, readTime: now }, undefined, now);
    }
    for (const { notificationId, rowId } of unread) if (rowId === null && (await this.insertReadRow(scope, notificationId, now))) changed++;
    return changed;
  }

  /**
   * One page of the notifications that reach the caller, newest publishTime first (then by id); `archived` omitted
   * means not archived, `read` omitted either. The rows and the total are read in one snapshot.
   */
  async page(caller: InboxCaller, query: InboxPageQuery): Promise<WithExtra<InboxNotification[]>> {
    const { current, pageSize } = query;
    const now = Date.now();
    const [found, total] = await this.notifications.snapshot(async (manager) => {
      const matching = () => this.filtered(this.reaching(caller, now, manager), query);
      const rows = await matching()
        .orderBy('n.publishTime', 'DESC')
        .addOrderBy('n.notificationId', 'DESC')
        .offset((current - 1) * pageSize)
        .limit(pageSize)
        .getMany();
      return [rows as Reached[], await matching().getCount()] as const;
    });
    const data = found.map(InboxNotification.of);
    return new WithExtra(data, { current, pages: Math.ceil(total / pageSize), size: pageSize, total });
  }

  /**
   * Sets the caller's read or archived state of one notification that reaches the caller: true when it changed;
   * false when it was so already, or the notification does not reach the caller (another user's, another tenant's,
   * not published, unknown). A notification without a row of the caller gets one. Concurrent twins (two replicas
   * marking the same notification of the same caller) both succeed: the one whose new row meets the other's runs
   * again and finds the state set (false).
   */
  mark(caller: InboxCaller, notificationId: string, mark: InboxMark): Promise<boolean> {
    return retryingConcurrentTwins(() => this.markOnce(caller, notificationId, mark));
  }

  private async markOnce(caller: InboxCaller, notificationId: string, { field, value }: InboxMark): Promise<boolean> {
    const { scope } = caller;
    const now = Date.now();
    const reached = (await this.reaching(caller, now)
      .andWhere('n.notificationId = :notificationId', { notificationId })
      .getOne()) as Reached | null;
    if (!reached) return false;
    const changes = field === 'read' ? { read: value, readTime: value ? now : null } : { archived: value };
    const row = reached.callerRow;
    if (row) {
      if (row[field] === value) return false;
      // only while the state is still the other one: of two concurrent twins one changes it
      const unchanged = { notificationUserId: row.notificationUserId, [field]: !value };
      return (await this.users.updateRecords(scope, unchanged, changes, undefined, now)) > 0;
    }
    // no row: unread and not archived, which unmarking leaves as it is
    if (!value) return false;
    await this.users.insertRecords(
      scope,
      [{ notificationId, username: scope.username, read: false, readTime: null, archived: false, ...changes }],
      {
        now,
      },
    );
    return true;
  }

  /** False when a row appeared meanwhile (a concurrent markAllRead or mark of the same user): its key is unique. */
  private async insertReadRow(scope: TenantScope, notificationId: string, now: number): Promise<boolean> {
    try {
      await this.users.insertRecords(scope, [{ notificationId, username: scope.username, read: true, readTime: now }], { now });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** What countUnread counts and markAllRead marks: reaching the caller, unread, not archived. */
  private unreadInbox(caller: InboxCaller, now: number): SelectQueryBuilder<Notification> {
    return this.filtered(this.reaching(caller, now), { read: false, archived: false });
  }

  /**
   * The inbox's filters on the caller's state (null, as everywhere, is "not given"): `read` omitted takes both, `archived`
   * omitted the ones not archived. A notification without a row of the caller is unread and not archived.
   */
  private filtered(query: SelectQueryBuilder<Notification>, { read, archived }: { read?: boolean | null; archived?: boolean | null }) {
    if (read !== undefined && read !== null) query.andWhere(stateIs('read', read));
    return query.andWhere(stateIs('archived', archived ?? false));
  }

  /**
   * The one rule of who a notification reaches (see the class), as a query over the tenant's notifications aliased
   * `n`, each with the caller's live row (`r`, mapped as callerRow) when there is one. Read on the status filter's
   * index in publishTime order; the row by notification-user's unique key.
   */
  private reaching({ scope, roles }: InboxCaller, now: number, manager?: EntityManager): SelectQueryBuilder<Notification> {
    const query = this.notifications
      .select(scope, { status: 'PUBLISHED' }, 'n', manager)
      .andWhere('(n.publishTime IS NULL OR n.publishTime <= :now)', { now })
      .leftJoinAndMapOne(
        'n.callerRow',
        NotificationUser,
        'r',
        'r.tenantId = n.tenantId AND r.notificationId = n.notificationId AND r.username = :username AND r.deleteTime = :live',
        { username: scope.username, live: LIVE },
      );
    const roleNames = [...new Set(roles)];
    return query.andWhere(
      new Brackets((target) => {
        target
          .where('n.targetType = :all', { all: 'ALL' })
          .orWhere('(n.targetType = :user AND r.notificationUserId IS NOT NULL)', { user: 'USER' });
        if (roleNames.length) target.orWhere('(n.targetType = :role AND n.targetRole IN (:...roleNames))', { role: 'ROLE', roleNames });
      }),
    );
  }
}

/** The caller's read or archived state is `value` (no row: false). */
function stateIs(field: 'read' | 'archived', value: boolean): Brackets {
  const parameter = `${field}State`;
  return new Brackets((state) =>
    value
      ? state.where(`r.${field} = :${parameter}`, { [parameter]: YES })
      : state.where('r.notificationUserId IS NULL').orWhere(`r.${field} = :${parameter}`, { [parameter]: NO }),
  );
}
