import { ResourceRegistration } from '@app/common';
import { MessageDelivery } from './delivery/message-delivery.entity';
import { emailResource } from './email/email.resource';
import { EmailConfigController } from './email-config/email-config.controller';
import { emailConfigResource } from './email-config/email-config.resource';
import { emailTemplateResource } from './email-template/email-template.resource';
import { emailTemplateEmailConfigResource } from './email-template-email-config/email-template-email-config.resource';
import { notificationResource } from './notification/notification.resource';
import { notificationConfigResource } from './notification-config/notification-config.resource';
import { notificationTemplateResource } from './notification-template/notification-template.resource';
import { notificationTemplateNotificationConfigResource } from './notification-template-notification-config/notification-template-notification-config.resource';
import { NotificationUserController } from './notification-user/notification-user.controller';
import { notificationUserResource } from './notification-user/notification-user.resource';
import { smsResource } from './sms/sms.resource';
import { SmsConfigController } from './sms-config/sms-config.controller';
import { smsConfigResource } from './sms-config/sms-config.resource';
import { smsPackageResource } from './sms-package/sms-package.resource';
import { smsTemplateResource } from './sms-template/sms-template.resource';
import { smsTemplateSmsConfigResource } from './sms-template-sms-config/sms-template-sms-config.resource';

/** The message group's resources: the one place a new one is registered. */
export const MESSAGE_RESOURCES: ResourceRegistration[] = [
  { resource: emailResource },
  { resource: emailConfigResource, controller: EmailConfigController },
  { resource: emailTemplateResource },
  { resource: emailTemplateEmailConfigResource },
  { resource: notificationResource },
  { resource: notificationConfigResource },
  { resource: notificationTemplateResource },
  { resource: notificationTemplateNotificationConfigResource },
  { resource: notificationUserResource, controller: NotificationUserController },
  { resource: smsResource },
  { resource: smsConfigResource, controller: SmsConfigController },
  { resource: smsPackageResource },
  { resource: smsTemplateResource },
  { resource: smsTemplateSmsConfigResource },
];

/** The group's tables: its resources' and the delivery bookkeeping. */
export const MESSAGE_ENTITIES = [...MESSAGE_RESOURCES.map((r) => r.resource.entity), MessageDelivery];
