/**
 * @garrison/runtime: the kernel every Garrison feature is built on.
 * Plugins import from here only.
 */
export * as Plugin from "./kernel/Plugin.js"
export { errorMessage } from "./errorMessage.js"
export type { AnyPlugin, HttpRouteServices, Job, PluginHttp, PluginRef, PluginSecret, PluginService } from "./kernel/Plugin.js"
export * as Runtime from "./kernel/Runtime.js"
export type { KernelServices } from "./kernel/Runtime.js"
export { planPlugins, listEndpoints, routeShape } from "./kernel/PluginPlan.js"
export type { PluginPlan, RouteEntry, HostRoute } from "./kernel/PluginPlan.js"
export { PluginRegistry } from "./kernel/PluginRegistry.js"
export { StartupError } from "./kernel/StartupError.js"
// Run-time settings: declared by plugins, read with `currentSetting`, overridden through the system plugin.
export * from "./settings/index.js"
export { Hooks, HookFailed, hookPoint, BeforeServerStart, BeforeServerUpdate } from "./kernel/Hooks.js"
export type { ServerUpdateHookInput } from "./kernel/Hooks.js"
export { Announcements } from "./kernel/Announcements.js"
export type { Announcement, AnnouncementsShape } from "./kernel/Announcements.js"
export type { HookPoint, HookHandler, ServerHookInput } from "./kernel/Hooks.js"

export { Access, allows, describeAccess, missingPermissions, needsCaller, permissionsNamed } from "./access/Access.js"
export type { AccessRule } from "./access/Access.js"
export { ADMIN, PermissionCatalog, grants, kernelPermissions } from "./access/Permissions.js"
export type { PermissionDefinition } from "./access/Permissions.js"
export {
  AuthenticationFailed,
  CurrentPrincipal,
  CurrentPrincipalOption,
  currentPrincipalRef,
  principalCan
} from "./access/Principal.js"
export type { Principal } from "./access/Principal.js"
export { Authenticators, scheme } from "./access/Authenticators.js"
export type { AuthenticationContext, AuthenticationScheme, AuthenticatorsShape, SchemeAuthenticator } from "./access/Authenticators.js"
export { canSeeServer, serverParamOf, visibleServers } from "./access/ServerScope.js"

export { EventBus, on } from "./events/EventBus.js"
export type { AnyEvent, EventClass, EventHandler } from "./events/EventBus.js"
export { eventPatternMatches, isEventPattern, PUBLISHED_EVENT_NAME, published, PublishedEvents, SUMMARY_MAX } from "./events/PublishedEvents.js"
export type { AnyPublishedEvent, EventSeverity, PublishableClass, PublishedEvent, PublishedEventsShape, PublishSpec } from "./events/PublishedEvents.js"

export { describeDatabaseUrl, GarrisonConfig, settingsConfig } from "./config/GarrisonConfig.js"
export { type HostFolders, hostFolders } from "./config/HostFolders.js"
export type { GarrisonSettings } from "./config/GarrisonConfig.js"
export { DataDir, SecretError, Secrets, SESSION_SIGNING_KEY } from "./config/DataDir.js"
export type { SecretSpec, SecretsShape } from "./config/DataDir.js"
export { isSealed, keyIdOf, openWith, SEALED_PREFIX, SealedSecrets, sealWith } from "./secrets/SealedSecrets.js"
export type { OpenFailure, SealedBox, SealedSecretsShape, SealingKey } from "./secrets/SealedSecrets.js"
export { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./files/PrivateModes.js"

export { AtomicFiles, AtomicWriteError, writeFileAtomic } from "./files/AtomicFile.js"
export { controllerIsRoot, giveTree, giveTreeToItsOwner, ownerOf } from "./files/Ownership.js"
export type { Owner } from "./files/Ownership.js"
export { CONFINEMENT_PROBLEMS, ConfinedFileError, ConfinedFileProblem, isConfinementRefusal } from "./files/ConfinedFileError.js"
export { confinedFileBadRequest, confinedFileHttpError, showPath } from "./files/ConfinedFileHttp.js"
export type { ConfinedFileHttpError } from "./files/ConfinedFileHttp.js"
export { isFolderOrInside, isInsideFolder, relativeSegments } from "./files/ConfinedPath.js"
export { listConfined, listConfinedStats, openConfined, resolveRoot, statConfined, withConfinedFile } from "./files/ConfinedFiles.js"
export type { ConfinedFile, ConfinedRoot, EntryKind, EntryStats, FolderEntry, OpenOptions, Verification } from "./files/ConfinedFiles.js"
export { makeConfinedFolder, removeConfined, renameConfined, truncateConfined, writeConfined } from "./files/ConfinedWrites.js"
export * as ServerFiles from "./files/ServerFiles.js"
export * as GeneratedFile from "./files/GeneratedFile.js"
export { ServerFileSyncError } from "./files/GeneratedFile.js"
export type { FolderFailure, GeneratedFileHandle, Rendered, SyncReport as GeneratedFileSyncReport } from "./files/GeneratedFile.js"
export { ServerFileSync } from "./files/ServerFileSync.js"
export { type SqliteSnapshot, type SqliteSnapshotOptions, snapshotSqlite, SqliteSnapshotFailed } from "./files/SqliteSnapshot.js"
export type { ServerFileSyncOptions, ServerFileSyncShape } from "./files/ServerFileSync.js"

export * from "./database/index.js"
// The command line's backup and restore on PostgreSQL: the same pg_dump/pg_restore calls as the store's backups.
export { findPgTools, run as runPgTool, splitPassword as splitDatabasePassword, takePgDump } from "./database/internal/pgDump.js"

export { daysInMonth, IsoDateOrDateTime, IsoDateTime, isLeapYear, isoOf, isoOrNull, readIsoDateTime } from "./time/IsoDateTime.js"
export type { IsoReadOptions } from "./time/IsoDateTime.js"
export { DURATION_EXAMPLES, readUserDuration } from "./time/UserDuration.js"
export { EXPIRY_FORMS, looksLikeDate, readExpiry, readExpiryDate } from "./time/Expiry.js"

export {
  BadGateway,
  BadRequest,
  Conflict,
  Forbidden,
  GatewayTimeout,
  NotFound,
  PaymentRequired,
  PreconditionFailed,
  Unauthenticated,
  Unavailable,
  codeForTag,
  errorStatus
} from "./http/ApiErrors.js"
export type { ErrorBody, ErrorCode, ErrorCodeDeclaration } from "./http/ApiErrors.js"
export { ConstantResponse } from "./http/ConstantResponse.js"
export {
  etagOf,
  type JsonArrayCache,
  jsonArrayResponse,
  type JsonChunks,
  type JsonDialect,
  jsonObjectSql,
  type JsonRow,
  jsonPageResponse,
  type JsonSql,
  jsonSql,
  type JsonSqlValue,
  keysetChunks,
  makeJsonArrayCache,
  perDialect
} from "./http/JsonRows.js"
export {
  cursorCodec,
  decodeCursor,
  effectiveLimit,
  InvalidCursor,
  invalidCursor,
  MAX_CURSOR_LENGTH,
  PageCursor,
  pageFields,
  PageLimit,
  pageOfRows,
  pageParams,
  PageWithTotal,
  totalField
} from "./http/Page.js"
export type { CursorCodec, PageLimits, PageOf } from "./http/Page.js"
export * as Keyset from "./http/Keyset.js"
export type { KeyPart, KeysetOptions, KeysetPaging, KeyValue, SortKey } from "./http/Keyset.js"
export { conflictWith, cursorBadRequest, fieldBadRequest, notFoundWith } from "./http/EndpointErrors.js"
export type { FieldRefusal } from "./http/EndpointErrors.js"
export { knownFieldsOnly, requireKnownFields } from "./http/KnownFields.js"
export { type DecodeIssue, decodeIssues, describeExpected, PLAIN_ISSUES_MARKER } from "./http/DecodeIssues.js"
export type { ConstantResponseValue } from "./http/ConstantResponse.js"
export type { AuthenticationMethod, OperationFacts } from "./http/AuthenticationMethods.js"
export {
  AuthSchemes,
  CsrfExempt,
  DEFAULT_RATE_LIMIT,
  DuringPasswordChange,
  LICENSED_FEATURE_NAME,
  LicensedFeature,
  RateLimit,
  SESSION_SCHEME
} from "./http/RoutePolicy.js"
export { allowEveryFeature, isReadMethod, LicenseGate } from "./http/LicenseGate.js"
export { BUSY_LOOP_SHARE, eventLoopShare, makeRequestLoad, RECENT_REQUESTS, RECENT_WINDOW_MS, RequestLoad } from "./http/RequestLoad.js"
export type { RequestLoadShape } from "./http/RequestLoad.js"
export { makeTelemetry, Telemetry } from "./telemetry/Telemetry.js"
export type {
  FailureSource,
  GaugeSample,
  RconFailureKind,
  TelemetryGauge,
  TelemetryObserver,
  TelemetryShape
} from "./telemetry/Telemetry.js"
export { countRconFailures, rconFailureKind } from "./telemetry/rconFailures.js"
export type { LicenseGateShape, LicenseRefusal, LicenseRefusalCode } from "./http/LicenseGate.js"
export {
  builtInRateLimits,
  describeRule,
  EXEMPT_SCOPE,
  parseRateLimitSetting,
  settingName as rateLimitSettingName
} from "./http/RateLimits.js"
export type { RateLimitDeclaration, RateLimitRule } from "./http/RateLimits.js"
export { BodyExample, undocumentedEndpoints } from "./http/EndpointDocs.js"
export { describeQueryInteger, QueryInteger } from "./http/QueryInteger.js"
export { hasNul, NUL_RULE, StoredText, TrimmedStoredText, withoutNul } from "./http/StoredText.js"
export type { QueryIntegerOptions } from "./http/QueryInteger.js"
export { AuditTrail, countedRecord, recordForRequest, requestAuditsRef } from "./access/AuditTrail.js"
export type { AuditEntry, AuditTrailShape } from "./access/AuditTrail.js"
export { actedByName, auditActorFields, auditActorOf, SCHEDULER_ACTOR } from "./access/AuditActor.js"
export type { ActedBy, AuditActor } from "./access/AuditActor.js"

export * from "./rcon/index.js"
export * from "./game/index.js"
export { CurrentRequest, currentRequestRef } from "./http/RequestContext.js"
export type { RequestFacts } from "./http/RequestContext.js"
export * from "./servers/index.js"

export * as SteamCmd from "./steam/SteamCmd.js"
export { SteamCmdError } from "./steam/SteamCmd.js"
export type { SteamCmdJob, SteamCmdReport, SteamCmdStep, SteamLogin, StepOutcome as SteamCmdStepOutcome } from "./steam/SteamCmd.js"
export { cleanLine as cleanSteamCmdLine, failureKindOf as steamCmdFailureKind, parseSteamCmdLine } from "./steam/SteamCmdOutput.js"
export type { SteamCmdFailureKind, SteamCmdLine } from "./steam/SteamCmdOutput.js"
export { makeKeyedLocks } from "./concurrency/KeyedLocks.js"
export type { KeyedLocks } from "./concurrency/KeyedLocks.js"
export { makeProgressBoard } from "./servers/ProgressBoard.js"
export type { ProgressBoard } from "./servers/ProgressBoard.js"
export { serverSentEvents, sseEvent } from "./http/ServerSentEvents.js"
export { profilesFolder } from "./servers/ProfilesFolder.js"
export { forkUntilBegan, runOperationFor, startOperation } from "./servers/StartOperation.js"
export type { StartedBody } from "./servers/StartOperation.js"
export { etagMatches, ifMatchHeader, versionedAnswer, VersionMismatch, versionMismatchHttp } from "./http/Preconditions.js"
export { Refusal, refusalHttpError } from "./http/Refusal.js"
