import { CrudController, Operation, requestScope, ResourceController } from '@app/common';
import { Post } from '@nestjs/common';
import { notificationUserResource as resource } from './notification-user.resource';

/** The standard operations plus the signed-in user's own inbox: count of unread rows, mark all read. */
@ResourceController(resource)
export class NotificationUserController extends CrudController(resource) {
  /** The caller's own live unread rows (tenant and live are added by CrudService). */
  private static unreadOf(username: string) {
    return { username, read: false };
  }

  @Post('countUnread')
  @Operation({
    summary: "Count the caller's own unread notifications",
    description: 'No body. data: the number of live notification-user rows of the caller (token `sub`) in the caller\'s tenant with read = false.',
    permission: resource.permissionFor('read'),
    response: { data: 'number', example: 3 },
  })
  countUnread() {
    return this.crud.count(NotificationUserController.unreadOf(requestScope().username));
  }

  @Post('markAllRead')
  @Operation({
    summary: "Mark all the caller's own unread notifications read",
    description:
      "No body. Sets read = true and readTime = now on the caller's own live unread rows in the caller's tenant (other users' rows are " +
      'untouched); rows already read keep their readTime. data: the number of rows changed (0 on a repeated call).',
    permission: resource.permissionFor('update'),
    response: { data: 'number', example: 3 },
  })
  markAllRead() {
    const { username } = requestScope();
    return this.crud.updateMatching(NotificationUserController.unreadOf(username), { read: true, readTime: Date.now() });
  }
}
