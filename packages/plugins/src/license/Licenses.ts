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
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import {
  ADMIN,
  type AuditActor,
  AuditTrail,
  GarrisonConfig,
  type LicenseGateShape,
  PluginRegistry,
  type Principal,
  recordForRequest,
  SealedSecrets,
  type SealingKey,
  Secrets,
  StartupError
} from "@garrison/runtime"
import { createHash } from "node:crypto"
import { displayUrl, licenseSettings, REFRESH_INTERVAL, TIERS_RETRY, TIERS_TTL } from "./config.js"
import { GatedFeature, LicenseClaimsView, LicensePublicKey, LicenseStatus, LicenseTier, LicenseTiers } from "./contract/Api.js"
import { CommunityEdition, type KeyRefused, type LicenseServerFailed, type LicenseStoreError, NoLicense, storeError } from "./errors.js"
import { type LicenseServer, licenseServer, parsePublicKey, type TiersAnswer, type VerifyingKey, verifyToken } from "./internal/server.js"
import { describeStanding, entitledTo, gateVerdict, readOnlyIn, standingAt, type StoredLicense } from "./internal/state.js"

/** Seals the stored license key and token (AES-256-GCM). */
export const LICENSE_KEY = {
  name: "license-key",
  spec: {
    bytes: 32,
    exact: true,
    what: "the key that encrypts the stored license key and license token (AES-256-GCM)",
    ifReplaced: "the stored license becomes unreadable: activate it again"
  }
} as const satisfies SealingKey

/** The random bytes this controller's machine id is derived from (generated on first start, kept in the data directory). */
export const MACHINE_ID_SECRET = {
  name: "license-machine-id",
  spec: {
    bytes: 16,
    what: "the random value this controller's license machine id is derived from",
    ifReplaced: "the machine id changes and the license no longer matches it: activate the license again"
  }
} as const

/** `gm-` and 32 hex digits of SHA-256 over a label and the bytes: stable for a data directory, and tells nothing of the bytes. */
export const machineIdOf = (bytes: Uint8Array): string =>
  `gm-${createHash("sha256").update("garrison-machine-id\0").update(bytes).digest("hex").slice(0, 32)}`

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

interface Row {
  readonly license_key: string
  readonly token: string
  readonly pinned_key: string | null
  readonly activated_at: string
  readonly activated_by: string | null
  readonly checked_at: string
  readonly last_attempt_at: string | null
  readonly last_error: string | null
  readonly offline: number | string
  readonly past_due_since: string | null
  readonly revoked_at: string | null
}

const iso = (ms: number) => new Date(ms).toISOString()
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms))
const msOrNull = (text: string | null) => (text === null ? null : Date.parse(text))

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
      const configuredKey = Option.isSome(settings.publicKey)
        ? Option.some(
            yield* Effect.mapError(
              parsePublicKey(settings.publicKey.value),
              (problem) => new StartupError({ reason: "config", message: `bad configuration: LICENSE_PUBLIC_KEY: ${problem}` })
            )
          )
        : Option.none<VerifyingKey>()

      const rows = yield* sql<Row>`SELECT license_key, token, pinned_key, activated_at, activated_by, checked_at, last_attempt_at,
          last_error, offline, past_due_since, revoked_at FROM license_state WHERE id = 1`.pipe(Effect.mapError(storeError("read the license")))
      const box = yield* (yield* SealedSecrets).box(LICENSE_KEY, { sealedValuesExist: rows.length > 0, sealedWhat: "the license key and token" })

      /** The stored license as it reads back, verified again, or undefined (logged) when it cannot be trusted. */
      const load = (row: Row) =>
        Effect.gen(function* () {
          const key = box.open(row.license_key, "license/license_key")
          const token = box.open(row.token, "license/token")
          if (Either.isLeft(key) || Either.isLeft(token)) {
            return yield* Effect.as(Effect.logError("license: the stored license does not open (its key file changed?): activate it again"), undefined)
          }
          const verifying = Option.isSome(configuredKey)
            ? Either.right(configuredKey.value)
            : row.pinned_key === null
              ? Either.left("no public key is configured or pinned")
              : yield* Effect.either(parsePublicKey(row.pinned_key))
          if (Either.isLeft(verifying)) {
            return yield* Effect.as(Effect.logError(`license: the stored license cannot be checked (${verifying.left}): activate it again`), undefined)
          }
          const now = yield* Clock.currentTimeMillis
          const claims = yield* Effect.either(verifyToken(token.right, verifying.right, machineId, now, { atIssue: true }))
          if (Either.isLeft(claims)) {
            return yield* Effect.as(
              Effect.logError(`license: the stored license does not verify (${claims.left.message}); LICENSE_PUBLIC_KEY changed? activate it again`),
              undefined
            )
          }
          const license: StoredLicense = {
            key: key.right,
            token: token.right,
            claims: claims.right,
            pinnedKey: row.pinned_key,
            activatedAt: Date.parse(row.activated_at),
            activatedBy: row.activated_by,
            checkedAt: Date.parse(row.checked_at),
            lastAttemptAt: msOrNull(row.last_attempt_at),
            lastError: row.last_error,
            offline: Number(row.offline) !== 0,
            pastDueSince: msOrNull(row.past_due_since),
            revokedAt: msOrNull(row.revoked_at)
          }
          return { license, verifying: verifying.right }
        })
      const loaded = rows[0] === undefined ? undefined : yield* load(rows[0])

      const current = yield* Ref.make<StoredLicense | undefined>(loaded?.license)
      /** The key tokens are checked with now: the configured one, else the one pinned at activation. */
      const verifyingRef = yield* Ref.make<Option.Option<VerifyingKey>>(
        Option.isSome(configuredKey) ? configuredKey : Option.fromNullable(loaded?.verifying)
      )
      const lock = yield* Effect.makeSemaphore(1)
      const startedAt = yield* Clock.currentTimeMillis
      /** When the last refresh (or the start) was: the next is one interval after it. */
      const lastRun = yield* Ref.make(startedAt)
      const tiersCache = yield* Ref.make<{ readonly answer: TiersAnswer; readonly at: number } | undefined>(undefined)
      const tiersFailedAt = yield* Ref.make<number | undefined>(undefined)

      const save = (license: StoredLicense) =>
        sql`INSERT INTO license_state (id, license_key, token, pinned_key, activated_at, activated_by, checked_at, last_attempt_at,
              last_error, offline, past_due_since, revoked_at)
            VALUES (1, ${box.seal(license.key, "license/license_key")}, ${box.seal(license.token, "license/token")}, ${license.pinnedKey},
              ${iso(license.activatedAt)}, ${license.activatedBy}, ${iso(license.checkedAt)}, ${isoOrNull(license.lastAttemptAt)},
              ${license.lastError}, ${license.offline ? 1 : 0}, ${isoOrNull(license.pastDueSince)}, ${isoOrNull(license.revokedAt)})
            ON CONFLICT (id) DO UPDATE SET license_key = excluded.license_key, token = excluded.token, pinned_key = excluded.pinned_key,
              activated_at = excluded.activated_at, activated_by = excluded.activated_by, checked_at = excluded.checked_at,
              last_attempt_at = excluded.last_attempt_at, last_error = excluded.last_error, offline = excluded.offline,
              past_due_since = excluded.past_due_since, revoked_at = excluded.revoked_at`

      const status = (viewer: Pick<Principal, "permissions">) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const stored = yield* Ref.get(current)
          const license = configured ? stored : undefined
          const standing = standingAt(license, now)
          const admin = viewer.permissions.has(ADMIN)
          const verifying = yield* Ref.get(verifyingRef)
          return new LicenseStatus({
            edition: configured ? "licensed" : "community",
            state: standing.state,
            message: describeStanding(configured, license, standing),
            gated: configured,
            readOnly: configured && readOnlyIn(standing.state),
            license:
              license === undefined
                ? null
                : new LicenseClaimsView({
                    id: license.claims.licenseId,
                    tier: license.claims.tier,
                    holder: license.claims.holder,
                    entitlements: license.claims.entitlements,
                    issuedAt: iso(license.claims.issuedAt),
                    expiresAt: iso(license.claims.expiresAt),
                    standing: license.claims.standing
                  }),
            activatedAt: license === undefined ? null : iso(license.activatedAt),
            checkedAt: license === undefined ? null : iso(license.checkedAt),
            lastAttemptAt: license === undefined ? null : isoOrNull(license.lastAttemptAt),
            nextRefreshAt: license === undefined ? null : iso((yield* Ref.get(lastRun)) + Duration.toMillis(REFRESH_INTERVAL)),
            graceEndsAt: isoOrNull(standing.graceEndsAt),
            server: admin ? Option.getOrNull(Option.map(settings.serverUrl, displayUrl)) : null,
            machineId: admin ? machineId : null,
            lastError: admin && license !== undefined ? license.lastError : null,
            publicKey:
              admin && configured && Option.isSome(verifying)
                ? new LicensePublicKey({ source: Option.isSome(configuredKey) ? "configured" : "pinned", thumbprint: verifying.value.thumbprint })
                : null
          })
        })

      const asAdmin = { permissions: new Set([ADMIN]) }

      const activate: LicensesShape["activate"] = (key, by) =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            if (Option.isNone(server)) {
              return yield* new CommunityEdition({
                message: "community edition: no license server is configured (set LICENSE_SERVER_URL), so there is no license to activate"
              })
            }
            const previous = yield* Ref.get(current)
            // The configured key; else the one pinned by an earlier activation; else the server's, pinned from now on.
            const pinned = yield* Ref.get(verifyingRef)
            const verifying = Option.isSome(pinned) ? pinned.value : yield* server.value.publicKey
            const token = yield* server.value.activate(key, machineId)
            const now = yield* Clock.currentTimeMillis
            const claims = yield* verifyToken(token, verifying, machineId, now)
            const license: StoredLicense = {
              key,
              token,
              claims,
              pinnedKey: Option.isSome(configuredKey) ? null : JSON.stringify(verifying.jwk),
              activatedAt: now,
              activatedBy: by.id,
              checkedAt: now,
              lastAttemptAt: now,
              lastError: null,
              offline: false,
              pastDueSince: claims.standing === "past_due" ? now : null,
              revokedAt: null
            }
            yield* Effect.zipRight(
              save(license),
              recordForRequest(audit, {
                actor: by.id,
                actorName: by.name,
                action: "license.activate",
                target: claims.licenseId,
                result: "success",
                details: {
                  tier: claims.tier,
                  entitlements: claims.entitlements,
                  expiresAt: iso(claims.expiresAt),
                  ...(previous === undefined ? {} : { replaced: previous.claims.licenseId })
                }
              })
            ).pipe(sql.withTransaction, Effect.mapError(storeError("store the license")))
            yield* Ref.set(current, license)
            yield* Ref.set(verifyingRef, Option.some(verifying))
            yield* Effect.logInfo(`license: ${claims.licenseId} (tier ${claims.tier}) activated until ${iso(claims.expiresAt)}`)
            return yield* status(asAdmin)
          })
        )

      const remove: LicensesShape["remove"] = (by) =>
        lock.withPermits(1)(
          Effect.gen(function* () {
            const license = yield* Ref.get(current)
            if (license === undefined) return yield* new NoLicense({ message: "no license is activated" })
            yield* Effect.zipRight(
              sql`DELETE FROM license_state WHERE id = 1`,
              recordForRequest(audit, {
                actor: by.id,
                actorName: by.name,
                action: "license.remove",
                target: license.claims.licenseId,
                result: "success",
                details: { tier: license.claims.tier }
              })
            ).pipe(sql.withTransaction, Effect.mapError(storeError("remove the license")))
            yield* Ref.set(current, undefined)
            yield* Ref.set(verifyingRef, configuredKey)
            yield* Effect.logInfo(`license: ${license.claims.licenseId} removed`)
            if (Option.isSome(server)) yield* server.value.deactivate(license.key, machineId)
            return yield* status(asAdmin)
          })
        )

      const refresh: LicensesShape["refresh"] = lock.withPermits(1)(
        Effect.gen(function* () {
          yield* Effect.flatMap(Clock.currentTimeMillis, (now) => Ref.set(lastRun, now))
          const license = yield* Ref.get(current)
          const verifying = yield* Ref.get(verifyingRef)
          if (license === undefined || Option.isNone(server) || Option.isNone(verifying)) return
          const answer = yield* Effect.either(server.value.refresh(license.key, machineId, license.claims.licenseId))
          const now = yield* Clock.currentTimeMillis
          const attempted = { ...license, lastAttemptAt: now }
          const offline = (message: string): StoredLicense => ({ ...attempted, offline: true, lastError: message })
          let next: StoredLicense
          if (Either.isLeft(answer)) next = offline(answer.left.message)
          else {
            const reply = answer.right
            switch (reply._tag) {
              case "Token": {
                const claims = yield* Effect.either(verifyToken(reply.token, verifying.value, machineId, now))
                // A token that does not verify proves nothing: as if the server had not answered.
                next = Either.isLeft(claims)
                  ? offline(claims.left.message)
                  : {
                      ...attempted,
                      token: reply.token,
                      claims: claims.right,
                      checkedAt: now,
                      offline: false,
                      lastError: null,
                      pastDueSince: claims.right.standing === "past_due" ? (license.pastDueSince ?? now) : null,
                      revokedAt: null
                    }
                break
              }
              case "PastDue":
                next = { ...attempted, checkedAt: now, offline: false, lastError: `payment failed: ${reply.message}`, pastDueSince: license.pastDueSince ?? now }
                break
              case "Withdrawn":
                next = {
                  ...attempted,
                  checkedAt: now,
                  offline: false,
                  lastError: `the license server withdrew the license (${reply.status}): ${reply.message}`,
                  revokedAt: license.revokedAt ?? now
                }
                break
            }
          }
          yield* save(next).pipe(Effect.mapError(storeError("store the license's check")))
          yield* Ref.set(current, next)
          const before = standingAt(license, now).state
          const after = standingAt(next, now)
          if (after.state !== before) {
            const line = `license: ${before} -> ${after.state}: ${describeStanding(true, next, after)}`
            yield* after.state === "active" ? Effect.logInfo(line) : Effect.logWarning(line)
          } else if (next.offline) yield* Effect.logWarning(`license: refresh failed: ${next.lastError}`)
        })
      )

      const refreshIfDue = Effect.gen(function* () {
        const license = yield* Ref.get(current)
        const now = yield* Clock.currentTimeMillis
        if (license !== undefined && now - license.checkedAt >= Duration.toMillis(REFRESH_INTERVAL)) yield* refresh
      })

      const tiers = Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        let cached = yield* Ref.get(tiersCache)
        const failedAt = yield* Ref.get(tiersFailedAt)
        const stale = cached === undefined || now - cached.at >= Duration.toMillis(TIERS_TTL)
        const mayTry = failedAt === undefined || now - failedAt >= Duration.toMillis(TIERS_RETRY)
        if (Option.isSome(server) && stale && mayTry) {
          const fetched = yield* Effect.either(server.value.tiers)
          if (Either.isRight(fetched)) {
            cached = { answer: fetched.right, at: now }
            yield* Ref.set(tiersCache, cached)
            yield* Ref.set(tiersFailedAt, undefined)
          } else {
            yield* Ref.set(tiersFailedAt, now)
            yield* Effect.logWarning(`license: tiers not read: ${fetched.left.message}`)
          }
        }
        const license = configured ? yield* Ref.get(current) : undefined
        const counts = new Map<string, number>()
        for (const route of registry.plan.routes) if (route.feature !== undefined) counts.set(route.feature, (counts.get(route.feature) ?? 0) + 1)
        return new LicenseTiers({
          edition: configured ? "licensed" : "community",
          tiers: configured ? (cached?.answer.tiers ?? []).map((tier) => new LicenseTier(tier)) : [],
          current: license === undefined ? null : license.claims.tier,
          features: [...counts.entries()]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(
              ([name, routes]) =>
                new GatedFeature({ name, routes, entitled: !configured || (license !== undefined && entitledTo(license.claims, name)) })
            ),
          fetchedAt: configured && cached !== undefined ? iso(cached.at) : null
        })
      })

      const gate: LicenseGateShape = {
        check: (feature, write) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Effect.map(Ref.get(current), (license) => gateVerdict(configured, license, now, feature, write))
          )
      }

      if (configured) {
        const standing = standingAt(loaded?.license, startedAt)
        yield* Effect.logInfo(
          `license: ${describeStanding(true, loaded?.license, standing)} (server ${Option.getOrElse(Option.map(settings.serverUrl, displayUrl), () => "")})`
        )
      }

      return Licenses.of({ machineId, status, tiers, activate, remove, refresh, refreshIfDue, gate })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
}
