import { CrudController, Operation, ResourceController, TenantScope } from '@app/common';
import { Inject, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NotificationInbox } from './notification-inbox';
import { notificationUserResource as resource } from './notification-user.resource';

/**
 * Any signed-in user's inbox operations need no permission: they act only on the caller's own rows (token
 * `sub` in its tenant, never a name from the body). The standard operations, which reach every user's rows,
 * stay behind the message-notification-user permissions (administrators and the holders).
 */
const OWN_ROWS_ONLY =
  "No permission needed: acts only on the caller (token `sub`) in the caller's tenant, and takes no username; " +
  "other users' rows are reached only by the standard operations, which need the message-notification-user permissions. ";

/** The standard operations plus the signed-in user's own inbox: count of unread notifications, mark all read. */
@ResourceController(resource)
export class NotificationUserController extends CrudController(resource) {
  @Inject(DataSource) private readonly dataSource: DataSource;
  private inboxOf?: NotificationInbox;

  private get inbox(): NotificationInbox {
    return (this.inboxOf ??= new NotificationInbox(this.dataSource));
  }

  @Post('countUnread')
  @Operation({
    summary: "Count the caller's own unread notifications",
    description:
      OWN_ROWS_ONLY +
      "No body. data: the number of notifications the caller has not read: the caller's live " +
      'notification-user rows with read = false, plus the published notifications for ALL users the caller has no row for. ' +
      'A notification counts once it is PUBLISHED and its publishTime has come (drafts, revoked and deleted ones do not).',
    response: { data: 'integer', example: 3 },
  })
  countUnread() {
    return this.inbox.countUnread(TenantScope.current());
  }

  @Post('markAllRead')
  @Operation({
    summary: "Mark all the caller's own unread notifications read",
    description:
      OWN_ROWS_ONLY +
      "No body. Sets read = true and readTime = now on the caller's own live unread rows (other users' rows are " +
      'untouched), and stores a read row for the caller for each published notification for ALL users the caller has none for; ' +
      'rows already read keep their readTime. data: the number of rows changed or written (0 on a repeated call).',
    response: { data: 'integer', example: 3 },
  })
  markAllRead() {
    return this.inbox.markAllRead(TenantScope.current());
  }
}
