/** The handlers behind `LicenseApi`: each maps the service's refusals once. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { auditActorOf, BadGateway, conflictWith, CurrentPrincipal, GatewayTimeout, notFoundWith, storeDefect } from "@garrison/runtime"
import { LicenseApi, LicenseRefused } from "./contract/Api.js"
import type { CommunityEdition, KeyRefused, LicenseServerFailed, NoLicense } from "./errors.js"
import { Licenses } from "./Licenses.js"

const communityEdition = conflictWith((error: CommunityEdition) => error.message)
const noLicense = notFoundWith((error: NoLicense) => error.message)
const keyRefused = (error: KeyRefused) => Effect.fail(new LicenseRefused({ message: error.message, details: { serverStatus: error.status } }))
/** 504 when the server did not answer in time; 502 for the rest (not reached, a bad answer, a token that does not verify). */
const serverFailed = (error: LicenseServerFailed) =>
  Effect.fail(
    error.reason === "timeout"
      ? new GatewayTimeout({ message: error.message })
      : new BadGateway({ message: error.message, details: { reason: error.reason } })
  )

export const LicenseRoutes = HttpApiBuilder.group(LicenseApi, "license", (handlers) =>
  Effect.gen(function* () {
    const licenses = yield* Licenses
    return handlers
      .handle("status", () => Effect.flatMap(CurrentPrincipal, licenses.status))
      .handle("tiers", () => licenses.tiers)
      .handle("activate", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (caller) => licenses.activate(payload.key, auditActorOf(caller))).pipe(
          Effect.catchTags({
            CommunityEdition: communityEdition,
            KeyRefused: keyRefused,
            LicenseServerFailed: serverFailed,
            LicenseStoreError: storeDefect
          })
        )
      )
      .handle("remove", () =>
        Effect.flatMap(CurrentPrincipal, (caller) => licenses.remove(auditActorOf(caller))).pipe(
          Effect.catchTags({ NoLicense: noLicense, LicenseStoreError: storeDefect })
        )
      )
  })
)
