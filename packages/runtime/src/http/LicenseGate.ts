/**
 * The license gate slot: an extension point the kernel owns, because the
 * host asks it before the handler of every route that names a
 * `LicensedFeature` (see `RoutePolicy`). The license plugin fills it
 * (`provides: [LicenseGate]`); until then, and in the community edition
 * (no license server configured), every feature is allowed.
 *
 * A refusal is answered by the host as 402 with
 * `{error, message, feature, status}`: `SUBSCRIPTION_INACTIVE` when there is
 * no license in force (none activated; or, after the grace, a write to a
 * feature that is read-only now), `FEATURE_NOT_ENTITLED` when the license
 * does not include the feature.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"

export type LicenseRefusalCode = "SUBSCRIPTION_INACTIVE" | "FEATURE_NOT_ENTITLED"

export interface LicenseRefusal {
  readonly error: LicenseRefusalCode
  /** For a person: why, and what to do. */
  readonly message: string
  /** The feature the route belongs to. */
  readonly feature: string
  /** The license's state as `GET /api/license` names it (`unactivated`, `lapsed`, ...). */
  readonly status: string
}

export interface LicenseGateShape {
  /**
   * Whether a route of `feature` may run now: undefined when it may, else
   * why not. `write`: the request changes something (every method but GET
   * and HEAD), which a read-only license refuses while it still lets reads
   * through. Never fails: a gate that cannot tell answers a refusal.
   */
  readonly check: (feature: string, write: boolean) => Effect.Effect<LicenseRefusal | undefined>
}

/** The gate without a license plugin: everything is allowed. */
export const allowEveryFeature: LicenseGateShape = { check: () => Effect.succeed(undefined) }

export class LicenseGate extends Context.Reference<LicenseGate>()("@garrison/runtime/LicenseGate", {
  defaultValue: (): LicenseGateShape => allowEveryFeature
}) {}

/** Whether a request only reads (what a read-only license still lets through). */
export const isReadMethod = (method: string): boolean => method === "GET" || method === "HEAD"
