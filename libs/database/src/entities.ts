import { AccountLogEntity } from './account-logs/account-log.entity';
import { PaymentReferenceEntity } from './billing/payment-reference.entity';
import { PaymentEntity } from './billing/payment.entity';
import { PlanEntity } from './billing/plan.entity';
import { BiolinkBlockEntity } from './biolink-blocks/biolink-block.entity';
import { DatumEntity } from './data/datum.entity';
import { DomainEntity } from './domains/domain.entity';
import { DeliveryEntity } from './events/delivery.entity';
import { OutboxEventEntity } from './events/outbox-event.entity';
import { LinkEntity } from './links/link.entity';
import { NotificationHandlerEntity } from './notification-handlers/notification-handler.entity';
import { ProjectEntity } from './projects/project.entity';
import { PushSubscriberEntity } from './push-subscribers/push-subscriber.entity';
import { QrCodeEntity } from './qr-codes/qr-code.entity';
import { SecretsKeyCheckEntity } from './secrets/secrets-key-check.entity';
import { SignatureEntity } from './signatures/signature.entity';
import { SplashPageEntity } from './splash-pages/splash-page.entity';
import {
  ClosedMonthsEntity,
  LinkDimensionMonthStatEntity,
  LinkDimensionStatEntity,
  LinkQuarterStatEntity,
  UserDimensionMonthStatEntity,
  UserDimensionStatEntity,
  UserQuarterStatEntity,
} from './statistics/stat.entities';
import { TeamMemberEntity } from './teams/team-member.entity';
import { TeamEntity } from './teams/team.entity';
import { ApiKeyEntity } from './users/api-key.entity';
import { UserEntity } from './users/user.entity';
import { VisitEntity } from './visits/visit.entity';

/** Every entity, registered once for both dialects. */
export const ENTITIES = [
  UserEntity,
  PlanEntity,
  PaymentEntity,
  PaymentReferenceEntity,
  ApiKeyEntity,
  ProjectEntity,
  DomainEntity,
  LinkEntity,
  VisitEntity,
  LinkQuarterStatEntity,
  UserQuarterStatEntity,
  LinkDimensionStatEntity,
  UserDimensionStatEntity,
  LinkDimensionMonthStatEntity,
  UserDimensionMonthStatEntity,
  ClosedMonthsEntity,
  SignatureEntity,
  NotificationHandlerEntity,
  TeamEntity,
  TeamMemberEntity,
  QrCodeEntity,
  OutboxEventEntity,
  DeliveryEntity,
  PushSubscriberEntity,
  AccountLogEntity,
  SplashPageEntity,
  BiolinkBlockEntity,
  DatumEntity,
  SecretsKeyCheckEntity,
];
