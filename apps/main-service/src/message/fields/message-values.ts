/**
 * Closed value sets and lengths of the message group (the values are documented in
 * docs/messages.md). Enumerations are stored as these strings, matched exactly.
 */

/** E-mail and SMS delivery: waiting to be sent (or retried), handed to the server/provider, given up. */
export const SEND_STATUSES = ['PENDING', 'SENT', 'FAILED'] as const;
export const CONTENT_TYPES = ['text', 'html'] as const;
export const NOTIFICATION_LEVELS = ['INFO', 'WARNING', 'ERROR'] as const;
/** Where a notification configuration delivers: the back-office inbox, e-mail, SMS, mobile push. */
export const NOTIFICATION_CHANNELS = ['IN_APP', 'EMAIL', 'SMS', 'PUSH'] as const;
/** Who a notification is for: every user of the tenant, listed users (notification-user rows), holders of a role. */
export const NOTIFICATION_TARGET_TYPES = ['ALL', 'USER', 'ROLE'] as const;
/** A role name as a token's `roles` carry it (a ROLE notification's targetRole). */
export const ROLE_MAX = 64;
export const NOTIFICATION_STATUSES = ['DRAFT', 'PUBLISHED', 'REVOKED'] as const;
export const SMS_PACKAGE_STATUSES = ['ACTIVE', 'EXHAUSTED', 'EXPIRED', 'DISABLED'] as const;

/**
 * What a create stores for a state field the caller omits (the columns' defaults): state a caller need not
 * know. A new e-mail or SMS waits to be sent (its sendTime stays null until then), a new package can be used,
 * a new notification is an informational draft for everyone (publishTime null until it is published).
 */
export const SEND_STATUS_DEFAULT = 'PENDING';
export const SMS_PACKAGE_STATUS_DEFAULT = 'ACTIVE';
export const NOTIFICATION_LEVEL_DEFAULT = 'INFO';
export const NOTIFICATION_TARGET_TYPE_DEFAULT = 'ALL';
export const NOTIFICATION_STATUS_DEFAULT = 'DRAFT';

/** Identifiers of other records (generated ones have 21 characters; client-supplied ones 1 to 32). */
export const RECORD_ID_MAX = 32;
/** Template codes, provider codes, business types and ids. */
export const CODE_MAX = 64;
/** RFC 5321: an address fits in 254 characters. */
export const EMAIL_MAX = 254;
export const SUBJECT_MAX = 255;
/** E-mail and notification bodies: a MySQL TEXT column (64 KB) holds 16,000 characters of utf8mb4. */
export const CONTENT_MAX = 16000;
/** An SMS body (a long message of up to ~7 concatenated parts) and its template. */
export const SMS_CONTENT_MAX = 1000;
/** Recipients of one e-mail (to, cc and bcc each) and of one SMS. */
export const EMAIL_RECIPIENTS_MAX = 50;
export const SMS_RECIPIENTS_MAX = 100;
export const SECRET_MAX = 255;
export const HOST_MAX = 255;
export const URL_MAX = 500;
