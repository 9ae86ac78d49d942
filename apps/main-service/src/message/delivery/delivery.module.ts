import { Module } from '@nestjs/common';
import { DeliveryClaims } from './delivery-claims';
import { DeliveryMetrics } from './delivery-metrics';
import { DeliveryDispatcher } from './delivery.dispatcher';
import { DeliveryRecords } from './delivery-records';
import { EmailSender } from './email-sender';
import { FairScan } from './fair-scan';
import { SenderBreakers } from './sender-breakers';
import { SmsPackageUnits } from './sms-package-units';
import { SmsSender } from './sms-sender';

/** Delivery of the stored e-mails and SMS (the dispatcher, started and stopped with the service). */
@Module({
  providers: [
    DeliveryDispatcher,
    DeliveryMetrics,
    DeliveryClaims,
    FairScan,
    SenderBreakers,
    DeliveryRecords,
    SmsPackageUnits,
    EmailSender,
    SmsSender,
  ],
  exports: [DeliveryDispatcher],
})
export class DeliveryModule {}
