/**
 * The audit tests' controller (the testkit's `testController`): the audit
 * plugin, the header authenticator and a small probe plugin with mutating
 * routes, proxies trusted (one hop).
 */
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Access, AuditTrail, Conflict, type GarrisonSettings, Plugin, recordForRequest } from "@garrison/runtime"
import { Effect, Schema } from "effect"
import { type AuditLog, AuditPlugin } from "../../src/audit/index.js"
import { MAX_FIELD_LENGTH } from "../../src/audit/internal/canonical.js"
import { testController } from "@garrison/testkit"

// `call` takes `ip`, sent as `X-Forwarded-For` (one proxy hop is trusted).
export { call, type Reply } from "@garrison/testkit"

const ProbeApi = HttpApi.make("probe").add(
  HttpApiGroup.make("probe")
    .add(
      HttpApiEndpoint.post("poke", "/api/probe/:id")
        .setPath(Schema.Struct({ id: Schema.String }))
        .addSuccess(Schema.Struct({ poked: Schema.String }))
        .addError(Conflict)
        .annotate(Access, Access.permission("probe.use"))
        .annotate(OpenApi.Summary, "Poke the probe")
    )
)

/** `POST /api/probe/:id` answers 200, or 409 when the id is `busy`; the id `audited` records a row of its own (`probe.poke`). */
const ProbePlugin = Plugin.make({
  id: "probe",
  requires: [AuditTrail],
  permissions: [{ name: "probe.use", description: "Poke the probe" }],
  http: Plugin.http(
    ProbeApi,
    HttpApiBuilder.group(ProbeApi, "probe", (h) =>
      Effect.map(AuditTrail, (audit) =>
        h.handle("poke", ({ path }) =>
          path.id === "busy"
            ? Effect.fail(new Conflict({ message: "busy" }))
            : path.id === "audited"
              ? Effect.as(recordForRequest(audit, { actor: "probe", action: "probe.poke", target: path.id, result: "success" }), { poked: path.id })
              : Effect.succeed({ poked: path.id })
        )
      )
    )
  )
})

/** A fresh controller (own data directory) with the audit plugin; `settings` over the tests' (a PostgreSQL `databaseUrl`, say). */
export const auditController = (settings: Partial<GarrisonSettings> = {}) =>
  testController<AuditLog>([AuditPlugin, ProbePlugin], { dataPrefix: "garrison-audit-", settings: { trustProxyHops: 1, ...settings } })

export const ADMIN = "root:admin"

/** A pair (U+1F600) whose high half is the last unit the clamp keeps. */
export const straddling = "a".repeat(MAX_FIELD_LENGTH - 1) + "\u{1F600}" + "tail"

/** Strings a caller might pass, well-formed or not. */
export const HOSTILE: ReadonlyArray<string> = [
  "\ud800x",
  "x\udbff",
  "\udc00x",
  "\udfff",
  "\udc00\ud800",
  "\ud83d\ud83d\ude00",
  "a\u0000b",
  "\u0000",
  "\ufffe\uffff",
  "\u{10FFFF}\u{1F600}",
  straddling,
  "\ud800".repeat(3) + "z".repeat(100_000),
  "é".repeat(100_000),
  "\u00ed\u00a0\u0080"
]
