/** The capability document (`/.well-known/service-trust.json`): what a partner needs to call and verify this instance. */
import * as Option from "effect/Option"
import type { JWK } from "jose"
import { ACCEPTED_KINDS_TEXT, IDENTIFIER_KINDS } from "./identifiers.js"
import { BANDS } from "./score.js"
import { TIERS } from "./tiers.js"

export const CAPABILITY_PATH = "/.well-known/service-trust.json"

export const capabilityDocument = (options: { readonly communityName: string; readonly threshold: number; readonly publicJwk: Option.Option<JWK> }) => ({
  service: "garrison-trust",
  version: 1,
  community: options.communityName,
  endpoints: {
    capabilities: CAPABILITY_PATH,
    lookup: "/api/v1/trust/{identifier}",
    export: "/api/v1/trust/export"
  },
  export: {
    auth: ["Authorization: Bearer <partner key>", "x-service-partner-key: <partner key>"],
    parameters: { since: "ISO 8601 or epoch milliseconds", cursor: "a page's nextCursor", limit: "rows per page, up to the tier's", status: "comma-separated: active, overturned, expired" },
    rows: ["id", "platformId", "serviceId", "reasonCategory", "status", "vouchCount", "activatedAt", "expiresAt", "updatedAt", "updatedMs"],
    order: "commit order; follow nextCursor to null, then resume with since=<resumeSince>"
  },
  tiers: TIERS,
  identifierKinds: IDENTIFIER_KINDS,
  identifierRule: ACCEPTED_KINDS_TEXT,
  score: {
    fields: {
      serviceId: "string (UUID v5 of the Steam64; the same on every Garrison instance)",
      platformId: "string (Steam64)",
      score: "number, 0-100",
      confidence: "number, 0-1",
      band: `string, one of ${BANDS.map((b) => b.name).join(", ")}`,
      signals: "object: bans_active, submissions_pending, accuracy (0-1 or null), overturned, expired, communities, playtime_hours (or null), servers_seen (or null)",
      reasons: "array of string",
      computedAt: "string, ISO 8601",
      proof: "string, RS256 JWT (when signing is on)"
    },
    min: 0,
    max: 100
  },
  bands: BANDS,
  pool: { threshold: options.threshold, statuses: ["active", "overturned", "expired"] },
  signing: Option.match(options.publicJwk, {
    onNone: () => null,
    onSome: (jwk) => ({
      alg: "RS256",
      header: "x-service-trust-proof",
      claims: ["iss", "sub", "iat", "platformId", "serviceId", "score", "band", "confidence", "computedAt"],
      keys: [jwk]
    })
  })
})
