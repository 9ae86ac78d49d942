import {
  AppException,
  CrudConfig,
  CrudController,
  EXAMPLE_ID,
  Operation,
  PAGE_EXTRA_SCHEMA,
  RequestBody,
  RequestContext,
  RequiredQuery,
  ResourceController,
  TenantScope,
} from '@app/common';
import { Inject, Post, Put } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { InboxNotification, InboxPageQuery } from './inbox-notification';
import { InboxCaller, InboxMark, NotificationInbox } from './notification-inbox';
import { notificationUserResource as resource } from './notification-user.resource';

/**
 * Any signed-in user's inbox operations need no permission: they act only on the caller's own rows (token
 * `sub` in its tenant, never a name from the body). The standard operations, which reach every user's rows,
 * stay behind the message-notification-user permissions (administrators and the holders).
 */
const OWN_ROWS_ONLY =
  "No permission needed: acts only on the caller (token `sub`) in the caller's tenant, and takes no username; " +
  "other users' rows are reached only by the standard operations, which need the message-notification-user permissions. ";

/** Who a notification reaches: the one rule of every inbox operation. */
const REACHES =
  'A notification reaches the caller once it is PUBLISHED, live and its publishTime (if set) has come, when it is for ALL users, ' +
  "for a role in the caller's token (targetType ROLE, targetRole), or for listed users (USER) with a notification-user row of the caller. ";

const MARK_DESCRIPTION =
  'data: true when the state of a notification that reaches the caller changed; false when it was so already, or when the notification ' +
  "does not reach the caller (another user's, another tenant's, not published, unknown). A notification for ALL users or a role that the " +
  'caller has no row for gets one (without a row it is unread and not archived). Two calls at the same moment both succeed, one of them answering true. ';

/** The standard operations plus the signed-in user's own inbox. */
@ResourceController(resource)
export class NotificationUserController extends CrudController(resource) {
  @Inject(DataSource) private readonly dataSource: DataSource;
  @Inject(CrudConfig) private readonly crudConfig: CrudConfig;
  private inboxOf?: NotificationInbox;

  private get inbox(): NotificationInbox {
    return (this.inboxOf ??= new NotificationInbox(this.dataSource));
  }

  @Post('countUnread')
  @Operation({
    summary: "Count the caller's own unread notifications",
    description:
      OWN_ROWS_ONLY +
      REACHES +
      'No body. data: the number of notifications that reach the caller and that the caller has neither read nor archived ' +
      '(one without a row of the caller counts as unread).',
    response: { data: 'integer', example: 3 },
  })
  countUnread() {
    return this.inbox.countUnread(caller());
  }

  @Post('markAllRead')
  @Operation({
    summary: "Mark all the caller's own unread notifications read",
    description:
      OWN_ROWS_ONLY +
      REACHES +
      'No body. Marks read every notification countUnread counts: sets read = true and readTime = now on the caller’s rows (other users’ ' +
      'rows are untouched), and stores a read row for each one the caller has none for; archived ones and rows already read are left ' +
      'as they are. data: the number of rows changed or written (0 on a repeated call).',
    response: { data: 'integer', example: 3 },
  })
  markAllRead() {
    return this.inbox.markAllRead(caller());
  }

  @Post('myPage')
  @Operation({
    summary: "Page through the caller's own notifications, newest first",
    description:
      OWN_ROWS_ONLY +
      REACHES +
      'data: the notifications that reach the caller, newest publishTime first (one published without a time last), each with the ' +
      "caller's read, readTime and archived. `read` filters by read state (omitted: both); `archived` omitted means not archived.",
    response: { data: [InboxNotification], extra: PAGE_EXTRA_SCHEMA, extraName: 'Page' },
    failures: [
      { status: 400, when: 'pageSize is greater than PAGE_SIZE_MAX; nothing is read.', error: 'pageSize must not be greater than 1000' },
    ],
  })
  @ApiBody({
    type: InboxPageQuery,
    examples: {
      firstPage: { summary: 'The first page of 10 not archived notifications', value: { current: 1, pageSize: 10 } },
      unread: { summary: 'Unread only', value: { read: false, current: 1, pageSize: 10 } },
      archived: { summary: 'The archive', value: { archived: true, current: 1, pageSize: 10 } },
    },
  })
  myPage(@RequestBody(InboxPageQuery) body: InboxPageQuery) {
    const max = this.crudConfig.pageSizeMax;
    if (body.pageSize > max) throw AppException.validation(`pageSize must not be greater than ${max}`);
    return this.inbox.page(caller(), body);
  }

  @Put('markRead')
  @Operation({
    summary: 'Mark one of the caller’s own notifications read',
    description: OWN_ROWS_ONLY + REACHES + 'Sets read = true and readTime = now. ' + MARK_DESCRIPTION,
    response: { data: 'boolean', example: true },
  })
  markRead(@RequiredQuery('notificationId', 'The notification', EXAMPLE_ID) notificationId: string) {
    return this.mark(notificationId, { field: 'read', value: true });
  }

  @Put('markUnread')
  @Operation({
    summary: 'Mark one of the caller’s own notifications unread',
    description: OWN_ROWS_ONLY + REACHES + 'Sets read = false and readTime = null. ' + MARK_DESCRIPTION,
    response: { data: 'boolean', example: true },
  })
  markUnread(@RequiredQuery('notificationId', 'The notification', EXAMPLE_ID) notificationId: string) {
    return this.mark(notificationId, { field: 'read', value: false });
  }

  @Put('archive')
  @Operation({
    summary: 'Archive one of the caller’s own notifications',
    description:
      OWN_ROWS_ONLY +
      REACHES +
      'Sets archived = true: myPage then shows it only with `archived: true`, and countUnread leaves it out. ' +
      MARK_DESCRIPTION,
    response: { data: 'boolean', example: true },
  })
  archive(@RequiredQuery('notificationId', 'The notification', EXAMPLE_ID) notificationId: string) {
    return this.mark(notificationId, { field: 'archived', value: true });
  }

  @Put('unarchive')
  @Operation({
    summary: 'Take one of the caller’s own notifications out of the archive',
    description: OWN_ROWS_ONLY + REACHES + 'Sets archived = false. ' + MARK_DESCRIPTION,
    response: { data: 'boolean', example: true },
  })
  unarchive(@RequiredQuery('notificationId', 'The notification', EXAMPLE_ID) notificationId: string) {
    return this.mark(notificationId, { field: 'archived', value: false });
  }

  private mark(notificationId: string, mark: InboxMark): Promise<boolean> {
    return this.inbox.mark(caller(), notificationId, mark);
  }
}

/** The token's user in its tenant, with the roles the token carries. */
function caller(): InboxCaller {
  return { scope: TenantScope.current(), roles: RequestContext.principal().roles };
}
