/**
 * The gate the host asks before a route of a licensed feature runs: a
 * verdict from the license held in memory and the time, so it reads no
 * database.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import type { LicenseGateShape } from "@garrison/runtime"
import type { LicenseContext } from "./context.js"
import { gateVerdict } from "./state.js"

export const makeGate = (ctx: LicenseContext): LicenseGateShape => ({
  check: (feature, write) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.map(Ref.get(ctx.current), (license) => gateVerdict(ctx.configured, license, now, feature, write))
    )
})
