/** What the trust tests share: a controller with a fake fleet, the ban list and the trust plugin; helpers to ban and submit. */
import { auditRecorder, call, fakeFleet, testController } from "@garrison/testkit"
import { expect } from "@effect/vitest"
import { Effect, LogLevel } from "effect"
import { BansPlugin } from "../../src/bans/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { type Pool, TrustPlugin } from "../../src/trust/index.js"

export const ADMIN = "root:admin"
export const MANAGER = "tm:trust.manage"

export const trustController = (config: Record<string, string> = {}) => {
  const audit = auditRecorder()
  const layer = testController<Pool>([audit.plugin, fakeFleet().plugin, PlayersPlugin, BansPlugin, TrustPlugin], {
    dataPrefix: "garrison-trust-",
    logLevel: LogLevel.Error,
    config: { RATE_LIMIT_API: "off", RATE_LIMIT_TRUST_LOOKUP: "off", ...config }
  })
  return { audit, layer }
}

/** A ban in the global list; its id. */
export const ban = (platformId: string, options: { readonly expiresAt?: string; readonly reason?: string } = {}) =>
  Effect.map(
    call("POST", "/api/bans", { as: ADMIN, json: { platformId, playerName: `P${platformId.slice(-4)}`, reason: options.reason ?? "Cheating (private note)", ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt }) } }),
    (reply) => {
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      return String((reply.body as { id: string }).id)
    }
  )

export const submit = (banId: string, reasonCategory = "cheating", note = "seen on video by our admins") =>
  call("POST", "/api/trust/submissions", { as: MANAGER, json: { banId, reasonCategory, note } })

export const lookup = (identifier: string) => call("GET", `/api/v1/trust/${encodeURIComponent(identifier)}`)

/** A partner key of `tier`, issued by an admin. */
export const partnerKey = (tier = "partner", name = "Partner") =>
  Effect.map(call("POST", "/api/trust/partner-keys", { as: ADMIN, json: { name, tier } }), (reply) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return reply.body as { key: string; partnerKey: { id: string } }
  })

export interface Page {
  readonly bans: ReadonlyArray<{ readonly id: string; readonly status: string; readonly updatedMs: number; readonly platformId: string }>
  readonly nextCursor: string | null
  readonly resumeSince: number
  readonly proof?: string
}

export const exportPage = (key: string, query: Record<string, string>) =>
  call("GET", `/api/v1/trust/export?${new URLSearchParams(query).toString()}`, { headers: { authorization: `Bearer ${key}` } })
