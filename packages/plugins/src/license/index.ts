/**
 * License: activation against a license server (`LICENSE_SERVER_URL`), an
 * RS256 token bound to this controller's machine id and checked offline,
 * refreshed every 6 hours with 7 days of grace, and the `LicenseGate` the
 * host asks before a route of a licensed feature (`LicensedFeature`) runs.
 * Without a license server (the community edition) nothing is gated. See
 * README.md.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AuditTrail, LicenseGate, Plugin, StartupError } from "@garrison/runtime"
import { licenseSettings, REFRESH_INTERVAL } from "./config.js"
import { LicenseApi } from "./contract/Api.js"
import { Licenses, MACHINE_ID_SECRET } from "./Licenses.js"
import { migrations } from "./migrations.js"
import { parsePublicKey } from "./internal/server.js"
import { LicenseRoutes } from "./routes.js"

/** The gate, filled from the service. */
const gateLayer = Layer.effect(LicenseGate, Effect.map(Licenses, (licenses) => licenses.gate))

/** The settings, checked before anything is written: a bad URL or public key stops the start in one line. */
const checkSettings = Effect.gen(function* () {
  const settings = yield* licenseSettings
  if (settings.publicKey._tag === "Some") {
    yield* Effect.mapError(
      parsePublicKey(settings.publicKey.value),
      (problem) => new StartupError({ reason: "config", message: `bad configuration: LICENSE_PUBLIC_KEY: ${problem}` })
    )
  }
})

export const LicensePlugin = Plugin.make({
  id: "license",
  description: "License activation, offline checks, grace and the gate of licensed features",
  // Records audit rows through the audit trail it reads when built: the audit plugin is built first.
  requires: [AuditTrail],
  // The host asks it before every route that names a licensed feature.
  provides: [LicenseGate],
  migrations,
  secrets: [MACHINE_ID_SECRET],
  layer: gateLayer.pipe(Layer.provideMerge(Licenses.layer)),
  http: Plugin.http(LicenseApi, LicenseRoutes),
  errorCodes: [
    {
      tag: "LicenseRefused",
      code: "license-refused",
      status: 422,
      description: "The license server refused the key (unknown, withdrawn, bound to another machine, unpaid)"
    }
  ],
  jobs: [
    {
      name: "refresh",
      every: REFRESH_INTERVAL,
      run: Effect.flatMap(Licenses, (licenses) => licenses.refresh)
    }
  ],
  // A controller that was stopped longer than an interval checks its license now rather than an interval later.
  onStart: Effect.flatMap(Licenses, (licenses) => Effect.forkScoped(Effect.ignoreLogged(licenses.refreshIfDue))),
  checkSettings
})

export { displayUrl as licenseServerDisplayUrl, GRACE_PERIOD as LICENSE_GRACE_PERIOD, licenseSettings, REFRESH_INTERVAL as LICENSE_REFRESH_INTERVAL } from "./config.js"
export type { LicenseSettings } from "./config.js"
export {
  ActivateBody as LicenseActivateBody,
  Edition as LicenseEdition,
  GatedFeature,
  LicenseApi,
  LicenseClaimsView,
  LicenseGroup,
  LicenseKey,
  LicensePublicKey,
  LicenseRefused,
  LicenseState,
  LicenseStatus,
  LicenseTier,
  LicenseTiers
} from "./contract/Api.js"
export { CommunityEdition, KeyRefused, LicenseServerFailed, LicenseStoreError, NoLicense } from "./errors.js"
export type { LicenseError } from "./errors.js"
export { LICENSE_KEY, Licenses, MACHINE_ID_SECRET, machineIdOf } from "./Licenses.js"
export type { LicensesShape } from "./Licenses.js"
export { TOKEN_AUDIENCE as LICENSE_TOKEN_AUDIENCE } from "./internal/server.js"
export { gateVerdict as licenseGateVerdict, standingAt as licenseStandingAt } from "./internal/state.js"
export type { LicenseClaims, Standing as LicenseStanding, StoredLicense } from "./internal/state.js"
