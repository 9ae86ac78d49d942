import { SortOrder } from '@app/common';

/** Message resources without a main time field: newest first (DESIGN §5 "others newest first"). */
export const NEWEST_FIRST: ['createdTime', SortOrder][] = [['createdTime', 'DESC']];

/** Where the group's routes live and how its permissions are named (DESIGN §7: `message-<segment>`). */
export const messageRoute = (segment: string, title: string) => ({
  path: `system-api/message/${segment}`,
  tag: `message / ${segment}`,
  permission: `message-${segment}`,
  title,
});
