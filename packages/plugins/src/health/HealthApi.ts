import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, ConstantResponse } from "@garrison/runtime"

export class Ping extends Schema.Class<Ping>("Ping")({
  status: Schema.Literal("ok")
}) {}

/** The backup a start-up restored the database from: what it lost is every write after `takenAt`. */
export class RestoredBackup extends Schema.Class<RestoredBackup>("RestoredBackup")({
  /** The backup's file name in `<DATA_DIR>/backups`. */
  file: Schema.String,
  /** When the backup was taken (ISO 8601); writes acknowledged after this time were lost. */
  takenAt: Schema.NullOr(Schema.String)
}) {}

export class HealthReport extends Schema.Class<HealthReport>("HealthReport")({
  status: Schema.Literal("ok", "degraded"),
  version: Schema.String,
  uptimeSeconds: Schema.Number,
  database: Schema.Struct({
    ok: Schema.Boolean,
    latencyMs: Schema.Number,
    /** How the database was opened at start-up: opened, created, restored-from-backup or reset-empty. */
    startup: Schema.String,
    /** Present when `startup` is restored-from-backup. */
    restoredFrom: Schema.optional(RestoredBackup),
    error: Schema.optional(Schema.String)
  }),
  plugins: Schema.Array(Schema.String)
}) {}

export class HealthGroup extends HttpApiGroup.make("health").annotate(OpenApi.Description, "Whether the controller is up and its parts are healthy.")
  .add(
    HttpApiEndpoint.get("health", "/api/health")
      .addSuccess(HealthReport)
      .annotate(Access, Access.none)
      .annotate(OpenApi.Summary, "Health report")
      .annotate(
        OpenApi.Description,
        "Version, uptime, the loaded plugins and the database: whether it answers, how fast, and how it was opened at " +
          "start-up (with the backup it was restored from, if any). `status` is `degraded` while the database does not answer."
      )
  )
  .add(
    HttpApiEndpoint.get("ping", "/api/health/ping")
      .addSuccess(Ping)
      .annotate(Access, Access.none)
      .annotate(OpenApi.Summary, "Liveness ping")
      .annotate(OpenApi.Description, "Always `{\"status\":\"ok\"}` while the controller listens; cheap enough for a load balancer's health check.")
      // Touches nothing, so the host answers it from the front door.
      .annotate(ConstantResponse, { status: 200, body: { status: "ok" } })
  ) {}

export class HealthApi extends HttpApi.make("health").add(HealthGroup) {}
