/**
 * What the license tests share: a plugin whose routes are gated (the seam's
 * proof: no built-in feature is licensed yet), and the controller with the
 * license plugin, a recorder of audit rows and the test authenticator.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import type * as SqlClient from "@effect/sql/SqlClient"
import { Access, LicensedFeature, Plugin } from "@garrison/runtime"
import { auditRecorder, testController } from "@garrison/testkit"
import { Effect, LogLevel, Schema } from "effect"
import { LicensePlugin, type Licenses } from "../../src/license/index.js"

export const ADMIN = "root:admin"
export const USER = "user:"
export const START = Date.parse("2026-03-01T12:00:00.000Z")
export const HOUR = 3_600_000
export const DAY = 24 * HOUR

const Done = Schema.Struct({ ok: Schema.Boolean })

/**
 * `reports` (a read and a write) and `fleet-sync` (a read): routes of
 * licensed features, for any signed-in caller; `free` is not gated.
 */
const gatedApi = HttpApi.make("test-gated").add(
  HttpApiGroup.make("gated")
    .add(HttpApiEndpoint.get("read", "/api/test-gated/reports").addSuccess(Done).annotate(LicensedFeature, "reports"))
    .add(HttpApiEndpoint.post("write", "/api/test-gated/reports").addSuccess(Done).annotate(LicensedFeature, "reports"))
    .add(HttpApiEndpoint.get("fleet", "/api/test-gated/fleet").addSuccess(Done).annotate(LicensedFeature, "fleet-sync"))
    .add(HttpApiEndpoint.get("free", "/api/test-gated/free").addSuccess(Done))
    .annotate(Access, Access.anyAuth)
)
/** The plugin, and how many times each of its handlers ran (a refused request never reaches one). */
export const gatedPlugin = () => {
  const handled = { read: 0, write: 0, fleet: 0, free: 0 }
  const count = (name: keyof typeof handled) => Effect.sync(() => (handled[name]++, { ok: true }))
  const plugin = Plugin.make({
    id: "test-gated",
    http: Plugin.http(
      gatedApi,
      HttpApiBuilder.group(gatedApi, "gated", (handlers) =>
        Effect.succeed(
          handlers
            .handle("read", () => count("read"))
            .handle("write", () => count("write"))
            .handle("fleet", () => count("fleet"))
            .handle("free", () => count("free"))
        )
      )
    )
  })
  return { plugin, handled }
}

/** The controller with the license plugin and the gated plugin; `config` names the license server. */
export const licenseController = (
  config: Record<string, string>,
  options: {
    readonly dataDir?: string
    readonly gated?: ReturnType<typeof gatedPlugin>
    readonly audit?: ReturnType<typeof auditRecorder>
    /** Leave the license plugin out (the gate's default). */
    readonly withoutLicense?: boolean
  } = {}
) =>
  testController<Licenses | SqlClient.SqlClient>(
    [
      ...(options.withoutLicense === true ? [] : [LicensePlugin]),
      (options.gated ?? gatedPlugin()).plugin,
      (options.audit ?? auditRecorder()).plugin
    ],
    {
      dataPrefix: "garrison-license-",
      logLevel: LogLevel.Error,
      config: { RATE_LIMIT_API: "off", ...config },
      ...(options.dataDir === undefined ? {} : { settings: { dataDir: options.dataDir } })
    }
  )
