/** Per-request facts the routes share: the caller's IP, HTTPS, and writing audit rows. */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type AuditEntry, AuditTrail, CurrentRequest, GarrisonConfig } from "@garrison/runtime"
import { clientIp, isHttps } from "../http/request.js"

export const requestFacts = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.all([GarrisonConfig, CurrentRequest]).pipe(
    Effect.map(([{ trustProxyHops }, facts]) => ({
      // The host's verdict (gate rule for TRUST_PROXY); derived here only outside the host.
      ip: Option.match(facts, { onSome: (f) => f.clientIp, onNone: () => clientIp(request, trustProxyHops) }),
      secure: isHttps(request, trustProxyHops)
    }))
  )

export const audit = (entry: AuditEntry) => Effect.flatMap(AuditTrail, (trail) => trail.record(entry))
