/**
 * The system plugin's HTTP contract (the spec's "System, health, audit"):
 * what runs where, how busy the host is, how Garrison is run, and the
 * settings that may change while it runs. Admins only.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Access, ADMIN, BadRequest, BodyExample } from "@garrison/runtime"

const Bytes = Schema.Number

export class DiskUsage extends Schema.Class<DiskUsage>("DiskUsage")({
  path: Schema.String,
  totalBytes: Bytes,
  freeBytes: Bytes,
  usedBytes: Bytes
}) {}

export class SystemInfo extends Schema.Class<SystemInfo>("SystemInfo")({
  garrison: Schema.Struct({ version: Schema.String, startedAt: Schema.String, uptimeSeconds: Schema.Number }),
  node: Schema.Struct({ version: Schema.String }),
  /** Versions of the libraries the controller is built on (null when not found). */
  libraries: Schema.Record({ key: Schema.String, value: Schema.NullOr(Schema.String) }),
  database: Schema.Struct({ engine: Schema.Literal("sqlite", "postgres"), version: Schema.NullOr(Schema.String) }),
  os: Schema.Struct({ platform: Schema.String, release: Schema.String, arch: Schema.String, hostname: Schema.String, uptimeSeconds: Schema.Number, cpus: Schema.Number }),
  dataDir: Schema.Struct({ path: Schema.String, disk: Schema.NullOr(DiskUsage) })
}) {}

export class MetricSample extends Schema.Class<MetricSample>("MetricSample")({
  at: Schema.String,
  /** Share of the sampling window the host's CPUs were busy, all cores together (0-100). */
  cpuBusyPercent: Schema.Number,
  load1: Schema.Number,
  memoryUsedBytes: Bytes,
  /** The controller's CPU time over the window, as a share of one core (may exceed 100 on several). */
  processCpuPercent: Schema.Number,
  rssBytes: Bytes,
  heapUsedBytes: Bytes,
  eventLoopP99Ms: Schema.Number
}) {}

export class EventLoopDelay extends Schema.Class<EventLoopDelay>("EventLoopDelay")({
  meanMs: Schema.Number,
  p50Ms: Schema.Number,
  p99Ms: Schema.Number,
  maxMs: Schema.Number
}) {}

export class SystemMetrics extends Schema.Class<SystemMetrics>("SystemMetrics")({
  sampleEverySeconds: Schema.Number,
  host: Schema.Struct({
    loadAverage: Schema.Tuple(Schema.Number, Schema.Number, Schema.Number),
    cpuBusyPercent: Schema.NullOr(Schema.Number),
    cpus: Schema.Number,
    memory: Schema.Struct({ totalBytes: Bytes, freeBytes: Bytes, usedBytes: Bytes })
  }),
  process: Schema.Struct({
    pid: Schema.Number,
    cpuPercent: Schema.NullOr(Schema.Number),
    rssBytes: Bytes,
    heapUsedBytes: Bytes,
    heapTotalBytes: Bytes,
    externalBytes: Bytes
  }),
  /** Since the last sample (null before the first). */
  eventLoop: Schema.NullOr(EventLoopDelay),
  /** The recent samples, oldest first. */
  history: Schema.Array(MetricSample)
}) {}

export class ServiceState extends Schema.Class<ServiceState>("ServiceState")({
  /** `systemd` when systemd started this process (its `INVOCATION_ID`), else `foreground`. */
  manager: Schema.Literal("systemd", "foreground"),
  pid: Schema.Number,
  ppid: Schema.Number,
  startedAt: Schema.String,
  user: Schema.NullOr(Schema.String),
  systemd: Schema.Struct({
    invocationId: Schema.Boolean,
    notifySocket: Schema.Boolean,
    /** `missing` (no systemctl), `ok`, or `failed` (it ran but gave no answer: no systemd as PID 1, a time-out). */
    systemctl: Schema.Literal("missing", "ok", "failed"),
    unit: Schema.NullOr(
      Schema.Struct({
        name: Schema.String,
        /** The unit file is there (`loaded`), else `not-found`. */
        present: Schema.Boolean,
        activeState: Schema.String,
        /** `enabled`, `disabled`, ... as systemctl says (empty when not found). */
        unitFileState: Schema.String,
        enabled: Schema.Boolean,
        mainPid: Schema.NullOr(Schema.Number)
      })
    )
  })
}) {}

export class SettingView extends Schema.Class<SettingView>("SettingView")({
  key: Schema.String,
  description: Schema.String,
  kind: Schema.Literal("choice", "boolean", "integer", "duration", "text"),
  choices: Schema.optional(Schema.Array(Schema.String)),
  secret: Schema.Boolean,
  /** Where the value comes from: a stored override, the environment, or the default. */
  source: Schema.Literal("stored", "environment", "default"),
  /** The value in force (absent for a secret). */
  value: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number, Schema.Boolean))),
  /** The value without the override (absent for a secret). */
  fallback: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number, Schema.Boolean))),
  /** For a secret: whether one is in force. */
  set: Schema.optional(Schema.Boolean)
}) {}

export class SystemConfig extends Schema.Class<SystemConfig>("SystemConfig")({ settings: Schema.Array(SettingView) }) {}

/** `{KEY: value}`; `null` clears the stored override. Keys and values are checked by the handler, to name them in plain words. */
export const SystemConfigPatch = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export class SystemGroup extends HttpApiGroup.make("system").annotate(OpenApi.Description, "The controller's host: versions, load, service and settings.")
  .add(HttpApiEndpoint.get("info", "/api/system/info").addSuccess(SystemInfo).annotate(OpenApi.Summary, "Versions, host and data directory"))
  .add(
    HttpApiEndpoint.get("metrics", "/api/system/metrics")
      .addSuccess(SystemMetrics)
      .annotate(OpenApi.Summary, "Host and controller load")
      .annotate(OpenApi.Description, "Sampled every 5 seconds; `history` holds the last 10 minutes.")
  )
  .add(HttpApiEndpoint.get("service", "/api/system/service").addSuccess(ServiceState).annotate(OpenApi.Summary, "How the controller runs (systemd or foreground)"))
  .add(HttpApiEndpoint.get("config", "/api/system/config").addSuccess(SystemConfig).annotate(OpenApi.Summary, "Run-time settings"))
  .add(
    HttpApiEndpoint.patch("patchConfig", "/api/system/config")
      .setPayload(SystemConfigPatch)
      .addSuccess(SystemConfig)
      .addError(BadRequest)
      .annotate(OpenApi.Summary, "Change run-time settings")
      .annotate(
        OpenApi.Description,
        "All or nothing: an unknown key or a bad value refuses the whole change (400 naming each). A stored value wins over the environment; `null` returns a key to the environment or default. Takes effect at once. Audit `system.config` (the keys, never a secret's value)."
      )
      .annotate(BodyExample, { LOG_LEVEL: "Debug", GAMELOG_POLL_INTERVAL: "5 seconds" })
  )
  .annotate(Access, Access.permission(ADMIN)) {}

export class SystemApi extends HttpApi.make("system").add(SystemGroup) {}
