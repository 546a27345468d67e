import { Init1763700000000 as PostgresInit } from './postgres/1763700000000-init';
import { LinksDomainsVisits1763800000000 as PostgresLinksDomainsVisits } from './postgres/1763800000000-links-domains-visits';
import { DomainsEnabledHost1763850000000 as PostgresDomainsEnabledHost } from './postgres/1763850000000-domains-enabled-host';
import { QrCodes1763900000000 as PostgresQrCodes } from './postgres/1763900000000-qr-codes';
import { SignaturesNotifications1764000000000 as PostgresSignaturesNotifications } from './postgres/1764000000000-signatures-notifications';
import { Teams1764100000000 as PostgresTeams } from './postgres/1764100000000-teams';
import { StatisticsRollups1764200000000 as PostgresStatisticsRollups } from './postgres/1764200000000-statistics-rollups';
import { SplashPages1764400000000 as PostgresSplashPages } from './postgres/1764400000000-splash-pages';
import { StatisticsMonthRollups1764500000000 as PostgresStatisticsMonthRollups } from './postgres/1764500000000-statistics-month-rollups';
import { SplashPageColor1764600000000 as PostgresSplashPageColor } from './postgres/1764600000000-splash-page-color';
import { BigintCounters1764700000000 as PostgresBigintCounters } from './postgres/1764700000000-bigint-counters';
import { EventsOutbox1764800000000 as PostgresEventsOutbox } from './postgres/1764800000000-events-outbox';
import { EventDeliveries1764810000000 as PostgresEventDeliveries } from './postgres/1764810000000-event-deliveries';
import { EventJobs1764820000000 as PostgresEventJobs } from './postgres/1764820000000-event-jobs';
import { PushSubscribers1764830000000 as PostgresPushSubscribers } from './postgres/1764830000000-push-subscribers';
import { AccountLogs1764840000000 as PostgresAccountLogs } from './postgres/1764840000000-account-logs';
import { ApiKeyScope1765100000000 as PostgresApiKeyScope } from './postgres/1765100000000-api-key-scope';
import { BioPages1765300000000 as PostgresBioPages } from './postgres/1765300000000-bio-pages';
import { Billing1765400000000 as PostgresBilling } from './postgres/1765400000000-billing';
import { ClosedMonths1765500000000 as PostgresClosedMonths } from './postgres/1765500000000-closed-months';
import { HandlerTeam1765600000000 as PostgresHandlerTeam } from './postgres/1765600000000-handler-team';
import { SecretsKeyCheck1765620000000 as PostgresSecretsKeyCheck } from './postgres/1765620000000-secrets-key-check';
import { PaymentReferences1765710000000 as PostgresPaymentReferences } from './postgres/1765710000000-payment-references';
import { BotsAndScans1765720000000 as PostgresBotsAndScans } from './postgres/1765720000000-bots-and-scans';
import { LinkPreviewsHealth1765730000000 as PostgresLinkPreviewsHealth } from './postgres/1765730000000-link-previews-health';
import { Init1763700000000 as SqliteInit } from './sqlite/1763700000000-init';
import { LinksDomainsVisits1763800000000 as SqliteLinksDomainsVisits } from './sqlite/1763800000000-links-domains-visits';
import { DomainsEnabledHost1763850000000 as SqliteDomainsEnabledHost } from './sqlite/1763850000000-domains-enabled-host';
import { QrCodes1763900000000 as SqliteQrCodes } from './sqlite/1763900000000-qr-codes';
import { SignaturesNotifications1764000000000 as SqliteSignaturesNotifications } from './sqlite/1764000000000-signatures-notifications';
import { Teams1764100000000 as SqliteTeams } from './sqlite/1764100000000-teams';
import { StatisticsRollups1764200000000 as SqliteStatisticsRollups } from './sqlite/1764200000000-statistics-rollups';
import { SplashPages1764400000000 as SqliteSplashPages } from './sqlite/1764400000000-splash-pages';
import { StatisticsMonthRollups1764500000000 as SqliteStatisticsMonthRollups } from './sqlite/1764500000000-statistics-month-rollups';
import { SplashPageColor1764600000000 as SqliteSplashPageColor } from './sqlite/1764600000000-splash-page-color';
import { BigintCounters1764700000000 as SqliteBigintCounters } from './sqlite/1764700000000-bigint-counters';
import { EventsOutbox1764800000000 as SqliteEventsOutbox } from './sqlite/1764800000000-events-outbox';
import { EventDeliveries1764810000000 as SqliteEventDeliveries } from './sqlite/1764810000000-event-deliveries';
import { EventJobs1764820000000 as SqliteEventJobs } from './sqlite/1764820000000-event-jobs';
import { PushSubscribers1764830000000 as SqlitePushSubscribers } from './sqlite/1764830000000-push-subscribers';
import { AccountLogs1764840000000 as SqliteAccountLogs } from './sqlite/1764840000000-account-logs';
import { ApiKeyScope1765100000000 as SqliteApiKeyScope } from './sqlite/1765100000000-api-key-scope';
import { BioPages1765300000000 as SqliteBioPages } from './sqlite/1765300000000-bio-pages';
import { Billing1765400000000 as SqliteBilling } from './sqlite/1765400000000-billing';
import { ClosedMonths1765500000000 as SqliteClosedMonths } from './sqlite/1765500000000-closed-months';
import { HandlerTeam1765600000000 as SqliteHandlerTeam } from './sqlite/1765600000000-handler-team';
import { SecretsKeyCheck1765620000000 as SqliteSecretsKeyCheck } from './sqlite/1765620000000-secrets-key-check';
import { PaymentReferences1765710000000 as SqlitePaymentReferences } from './sqlite/1765710000000-payment-references';
import { BotsAndScans1765720000000 as SqliteBotsAndScans } from './sqlite/1765720000000-bots-and-scans';
import { LinkPreviewsHealth1765730000000 as SqliteLinkPreviewsHealth } from './sqlite/1765730000000-link-previews-health';

/** Applied in this order. Each schema change adds one migration per dialect, with an exact `down`. */
export const SQLITE_MIGRATIONS = [
  SqliteInit,
  SqliteLinksDomainsVisits,
  SqliteDomainsEnabledHost,
  SqliteQrCodes,
  SqliteSignaturesNotifications,
  SqliteTeams,
  SqliteStatisticsRollups,
  SqliteSplashPages,
  SqliteStatisticsMonthRollups,
  SqliteSplashPageColor,
  SqliteBigintCounters,
  SqliteEventsOutbox,
  SqliteEventDeliveries,
  SqliteEventJobs,
  SqlitePushSubscribers,
  SqliteAccountLogs,
  SqliteApiKeyScope,
  SqliteBioPages,
  SqliteBilling,
  SqliteClosedMonths,
  SqliteHandlerTeam,
  SqliteSecretsKeyCheck,
  SqlitePaymentReferences,
  SqliteBotsAndScans,
  SqliteLinkPreviewsHealth,
];
export const POSTGRES_MIGRATIONS = [
  PostgresInit,
  PostgresLinksDomainsVisits,
  PostgresDomainsEnabledHost,
  PostgresQrCodes,
  PostgresSignaturesNotifications,
  PostgresTeams,
  PostgresStatisticsRollups,
  PostgresSplashPages,
  PostgresStatisticsMonthRollups,
  PostgresSplashPageColor,
  PostgresBigintCounters,
  PostgresEventsOutbox,
  PostgresEventDeliveries,
  PostgresEventJobs,
  PostgresPushSubscribers,
  PostgresAccountLogs,
  PostgresApiKeyScope,
  PostgresBioPages,
  PostgresBilling,
  PostgresClosedMonths,
  PostgresHandlerTeam,
  PostgresSecretsKeyCheck,
  PostgresPaymentReferences,
  PostgresBotsAndScans,
  PostgresLinkPreviewsHealth,
];
