/**
 * `Licenses`: the activated license, its checks with the license server and
 * the gate the host asks before a route of a licensed feature runs
 * (`LicenseGate`, which this plugin provides).
 *
 * The license (the key, the server's token, the pinned public key, the
 * dates of its checks) is one row of `license_state`, the key and the token
 * sealed; it is kept in memory too, so the gate reads no database. Every
 * time comes from `Clock`. Activation, removal and refresh run one at a
 * time.
 *
 * This file holds the service's interface and the layer that wires its
 * parts (`internal/`): the store, the verifying key, the status view,
 * activation and removal, the refresh job, the tiers and the gate.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import {
  type AuditActor,
  AuditTrail,
  GarrisonConfig,
  type LicenseGateShape,
  PluginRegistry,
  type Principal,
  SealedSecrets,
  Secrets
} from "@garrison/runtime"
import { displayUrl, licenseSettings } from "./config.js"
import type { LicenseStatus, LicenseTiers } from "./contract/Api.js"
import type { CommunityEdition, KeyRefused, LicenseServerFailed, LicenseStoreError, NoLicense } from "./errors.js"
import { makeActivate, makeRemove } from "./internal/activation.js"
import type { LicenseContext } from "./internal/context.js"
import { makeGate } from "./internal/gate.js"
import { LICENSE_KEY, MACHINE_ID_SECRET, machineIdOf } from "./internal/keys.js"
import { makeRefresh, makeRefreshIfDue } from "./internal/refresh.js"
import { type LicenseServer, licenseServer, type VerifyingKey } from "./internal/server.js"
import { describeStanding, standingAt, type StoredLicense } from "./internal/state.js"
import { makeStatus } from "./internal/status.js"
import { openLicenseRow, readLicenseRows } from "./internal/store.js"
import { makeTiers } from "./internal/tiers.js"
import { configuredVerifyingKey } from "./internal/verifyingKey.js"

export { LICENSE_KEY, MACHINE_ID_SECRET, machineIdOf } from "./internal/keys.js"

export interface LicensesShape {
  /** This controller's machine id, which tokens are bound to. */
  readonly machineId: string
  /** The state as `viewer` may see it (admins see the server, machine id, last error and key). */
  readonly status: (viewer: Pick<Principal, "permissions">) => Effect.Effect<LicenseStatus>
  readonly tiers: Effect.Effect<LicenseTiers>
  readonly activate: (
    key: string,
    by: AuditActor
  ) => Effect.Effect<LicenseStatus, CommunityEdition | KeyRefused | LicenseServerFailed | LicenseStoreError>
  readonly remove: (by: AuditActor) => Effect.Effect<LicenseStatus, NoLicense | LicenseStoreError>
  /** One check with the server (the 6-hourly job); nothing without a license or a server. */
  readonly refresh: Effect.Effect<void, LicenseStoreError>
  /** `refresh` when the last check is older than the refresh interval (at start). */
  readonly refreshIfDue: Effect.Effect<void, LicenseStoreError>
  /** What the host asks before a route of a licensed feature runs. */
  readonly gate: LicenseGateShape
}

export class Licenses extends Context.Tag("@garrison/plugins/license/Licenses")<Licenses, LicensesShape>() {
  static readonly layer: Layer.Layer<
    Licenses,
    unknown,
    SqlClient.SqlClient | SealedSecrets | Secrets | GarrisonConfig | PluginRegistry
  > = Layer.effect(
    Licenses,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const settings = yield* licenseSettings
      const { version } = yield* GarrisonConfig
      const registry = yield* PluginRegistry
      const audit = yield* AuditTrail
      const http = yield* HttpClient.HttpClient
      const machineId = machineIdOf(
        yield* (yield* Secrets).require(MACHINE_ID_SECRET.name, MACHINE_ID_SECRET.spec)
      )
      const server: Option.Option<LicenseServer> = Option.map(settings.serverUrl, (base) => licenseServer(http, base, version))
      const configured = Option.isSome(server)
      const configuredKey = yield* configuredVerifyingKey(settings)

      const rows = yield* readLicenseRows(sql)
      const box = yield* (yield* SealedSecrets).box(LICENSE_KEY, { sealedValuesExist: rows.length > 0, sealedWhat: "the license key and token" })
      const loaded = rows[0] === undefined ? undefined : yield* openLicenseRow(rows[0], box, configuredKey, machineId)

      const startedAt = yield* Clock.currentTimeMillis
      const ctx: LicenseContext = {
        sql,
        box,
        audit,
        settings,
        machineId,
        server,
        configured,
        configuredKey,
        current: yield* Ref.make<StoredLicense | undefined>(loaded?.license),
        verifyingKey: yield* Ref.make<Option.Option<VerifyingKey>>(
          Option.isSome(configuredKey) ? configuredKey : Option.fromNullable(loaded?.verifying)
        ),
        lock: yield* Effect.makeSemaphore(1),
        lastRun: yield* Ref.make(startedAt)
      }

      const status = makeStatus(ctx)
      const refresh = makeRefresh(ctx)
      const tiers = yield* makeTiers(ctx, registry)

      if (configured) {
        const standing = standingAt(loaded?.license, startedAt)
        yield* Effect.logInfo(
          `license: ${describeStanding(true, loaded?.license, standing)} (server ${Option.getOrElse(Option.map(settings.serverUrl, displayUrl), () => "")})`
        )
      }

      return Licenses.of({
        machineId,
        status,
        tiers,
        activate: makeActivate(ctx, status),
        remove: makeRemove(ctx, status),
        refresh,
        refreshIfDue: makeRefreshIfDue(ctx, refresh),
        gate: makeGate(ctx)
      })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
}
