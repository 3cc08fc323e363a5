/**
 * What the parts of `Licenses` share: the store, the license server, this
 * controller's machine id, and the license held in memory (so the gate
 * reads no database) with the lock that runs activation, removal and
 * refresh one at a time.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Ref from "effect/Ref"
import type { AuditTrailShape, SealedBox } from "@garrison/runtime"
import type { LicenseSettings } from "../config.js"
import type { LicenseServer, VerifyingKey } from "./server.js"
import type { StoredLicense } from "./state.js"

export interface LicenseContext {
  readonly sql: SqlClient.SqlClient
  readonly box: SealedBox
  readonly audit: AuditTrailShape
  readonly settings: LicenseSettings
  readonly machineId: string
  /** None in the community edition (no `LICENSE_SERVER_URL`). */
  readonly server: Option.Option<LicenseServer>
  readonly configured: boolean
  readonly configuredKey: Option.Option<VerifyingKey>
  readonly current: Ref.Ref<StoredLicense | undefined>
  /** The key tokens are checked with now: the configured one, else the one pinned at activation. */
  readonly verifyingKey: Ref.Ref<Option.Option<VerifyingKey>>
  readonly lock: Effect.Semaphore
  /** When the last refresh (or the start) was: the next is one interval after it. */
  readonly lastRun: Ref.Ref<number>
}
