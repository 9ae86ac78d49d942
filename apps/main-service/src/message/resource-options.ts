import { SortOrder } from '@app/common';

/** Message resources without a main time field: newest first, like every record without a configuration sort. */
export const NEWEST_FIRST: ['createdTime', SortOrder][] = [['createdTime', 'DESC']];

/** Where the group's routes live and how its permissions are named (`message-<segment>`). */
export const messageRoute = (segment: string, title: string) => ({
  path: `system-api/message/${segment}`,
  tag: `message: ${segment}`,
  permission: `message-${segment}`,
  title,
});

/**
 * Options of a template → configuration link (the two ids and sort): filtered by either id,
 * one live link per pair (422 "<title> exists"), newest first.
 */
export const linkOptions = <T extends string, C extends string>(templateField: T, configField: C) => ({
  filters: [templateField, configField] as (T | C)[],
  sortable: ['sort', templateField, configField] as ('sort' | T | C)[],
  defaultSort: NEWEST_FIRST,
  uniqueKey: [templateField, configField] as (T | C)[],
});
