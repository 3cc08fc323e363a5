/**
 * `@garrison/runtime` as the browser sees it (Vite aliases the package
 * here): only the browser-safe modules the plugins' HTTP contracts use, each
 * imported from its own file, so the runtime's Node side (SQLite, files,
 * RCON sockets, processes) never enters the module graph. A contract that
 * starts using another runtime export fails the dashboard build ("is not
 * exported by"), which is the moment to add it here.
 */
export { Access } from "../../../runtime/src/access/Access.js"
export { ADMIN, kernelPermissions } from "../../../runtime/src/access/Permissions.js"
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
  Unavailable
} from "../../../runtime/src/http/ApiErrors.js"
export { CsrfExempt, DuringPasswordChange, RateLimit } from "../../../runtime/src/http/RoutePolicy.js"
export { BodyExample } from "../../../runtime/src/http/EndpointDocs.js"
export { isEventPattern } from "../../../runtime/src/events/PublishedEvents.js"
export { QueryInteger } from "../../../runtime/src/http/QueryInteger.js"
export { hasNul, NUL_RULE, StoredText, TrimmedStoredText } from "../../../runtime/src/http/StoredText.js"
export { pageFields, pageParams, PageWithTotal, totalField } from "../../../runtime/src/http/Page.js"
export { IsoDateOrDateTime, IsoDateTime } from "../../../runtime/src/time/IsoDateTime.js"
export { PlatformId, Steam64 } from "../../../runtime/src/game/PlayerIds.js"
export { SECRET_MASK } from "../../../runtime/src/game/SecretMasks.js"
export { editServerConfig, parseServerConfig } from "../../../runtime/src/game/ServerConfigFile.js"
export { decodeIssues } from "../../../runtime/src/http/DecodeIssues.js"
export { ServerFault, ServerNotFound, ServerUnreadable } from "../../../runtime/src/servers/ServerErrors.js"
export { LaunchArgument, LaunchFields, LaunchPath, ModName } from "../../../runtime/src/servers/LaunchParameters.js"
