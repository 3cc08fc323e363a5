/**
 * The trust network: this community's view of the shared ban pool, a
 * public score per player (signed with RS256 when signing is on), and the
 * admin's pool: submissions, appeals, overturns, communities and weights.
 * See README.md.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Duration from "effect/Duration"
import { AuditTrail, type Job, Plugin } from "@garrison/runtime"
import { LOOKUP_RATE_SCOPE, TRUST_MANAGE, TrustApi } from "./contract/Api.js"
import { Lookup, TrustPlayerHistory } from "./Lookup.js"
import { migrations } from "./migrations.js"
import { PlayerLinks } from "./PlayerLinks.js"
import { Pool } from "./Pool.js"
import { TrustAdminRoutes, TrustPartnerKeysRoutes, TrustPublicRoutes, TrustSubscriptionsRoutes } from "./routes.js"
import { Subscriptions } from "./Subscriptions.js"
import { Export } from "./Export.js"
import { PartnerKeys } from "./PartnerKeys.js"
import { CURSOR_KEY } from "./internal/cursor.js"
import { PoolGeneration } from "./internal/poolGeneration.js"
import { TrustSigning } from "./Signing.js"

const jobs: ReadonlyArray<Job<Pool | Subscriptions>> = [
  { name: "expire", every: Duration.minutes(1), run: Effect.flatMap(Pool, (pool) => pool.expire) },
  // Each subscription pulls on its own interval (60 s at least); this looks every 30 s for those that are due.
  { name: "pull-subscriptions", every: Duration.seconds(30), run: Effect.flatMap(Subscriptions, (subscriptions) => subscriptions.pullDue) }
]

const services = Layer.mergeAll(Pool.layer, Lookup.layer, PlayerLinks.layer, PartnerKeys.layer, Export.layer).pipe(
  Layer.provideMerge(Layer.merge(TrustSigning.layer, PoolGeneration.layer))
)

export const TrustPlugin = Plugin.make({
  id: "trust",
  description: "Trust network: the community ban pool, public signed trust scores, the partner export and subscriptions to partners",
  // Submissions come from the global ban database.
  dependsOn: ["bans"],
  requires: [AuditTrail],
  // Playtime and servers seen, from the game log's player history when it is loaded.
  uses: [TrustPlayerHistory],
  permissions: [{ name: TRUST_MANAGE, description: "Manage the trust pool: submissions, appeals, overturns, community weights, chat links" }],
  rateLimits: [{ scope: LOOKUP_RATE_SCOPE, limit: 60, window: Duration.minutes(1), description: "the public trust lookup" }],
  migrations,
  secrets: [CURSOR_KEY],
  layer: Subscriptions.layer.pipe(Layer.provideMerge(services)),
  http: Plugin.http(TrustApi, Layer.mergeAll(TrustPublicRoutes, TrustAdminRoutes, TrustPartnerKeysRoutes, TrustSubscriptionsRoutes)),
  jobs
})

export { TrustApi, TrustScoreView, TRUST_MANAGE } from "./contract/Api.js"
export { Lookup, TrustPlayerHistory } from "./Lookup.js"
export type { LookupShape, PlayerHistoryShape, TrustScore } from "./Lookup.js"
export { LOCAL_COMMUNITY, Pool } from "./Pool.js"
export type { Appeal, Community, PoolBan, PoolShape } from "./Pool.js"
export { PlayerLinks } from "./PlayerLinks.js"
export { enforces as subscriptionEnforces, Subscriptions, SUBSCRIPTIONS_KEY } from "./Subscriptions.js"
export type { PullReport, Subscription, SubscriptionsShape } from "./Subscriptions.js"
export { Export as TrustExport } from "./Export.js"
export type { ExportPage as TrustExportPage, ExportRow as TrustExportRow } from "./Export.js"
export { hashPartnerKey, PartnerKeys } from "./PartnerKeys.js"
export type { Partner, PartnerKey } from "./PartnerKeys.js"
export { TIERS as TRUST_TIERS } from "./internal/tiers.js"
export { PROOF_ISSUER, SIGNING_ALGORITHM, TrustSigning } from "./Signing.js"
export { BANDS as TRUST_BANDS, bandOf as trustBandOf, scoreOf as trustScoreOf } from "./internal/score.js"
export { readIdentifier as readTrustIdentifier } from "./internal/identifiers.js"
export { serviceIdOf } from "./internal/players.js"
export { REASON_CATEGORIES as TRUST_REASON_CATEGORIES } from "./internal/rules.js"
