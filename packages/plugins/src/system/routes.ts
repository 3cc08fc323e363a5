/** The handlers behind `SystemApi`. Store faults are real faults: 500 with a request id. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Os from "node:os"
import { AuditTrail, auditActorFields, auditActorOf, BadRequest, CurrentPrincipal, recordForRequest, storeDefect } from "@garrison/runtime"
import { SystemApi } from "./contract/Api.js"
import type { SettingsRefused } from "./errors.js"
import { systemInfo } from "./HostInfo.js"
import { SAMPLE_EVERY_SECONDS, Sampler } from "./Sampler.js"
import { serviceState } from "./ServiceManager.js"
import { SystemSettings } from "./SystemSettings.js"

/** 400 naming each refused key in `details` (`path`: the key), the message saying what is expected. */
const refused = (error: SettingsRefused) =>
  Effect.fail(new BadRequest({ message: error.message, ...(error.problems.length > 0 ? { details: error.problems.map((p) => ({ path: p.key, message: p.message })) } : {}) }))

export const SystemRoutes = HttpApiBuilder.group(SystemApi, "system", (handlers) =>
  Effect.gen(function* () {
    const settings = yield* SystemSettings
    const sampler = yield* Sampler
    const audit = yield* AuditTrail
    // The services `systemInfo` reads, held once so the handler needs nothing more.
    const info = yield* Effect.map(Effect.context<Effect.Effect.Context<typeof systemInfo>>(), (context) => Effect.provide(systemInfo, context))
    const config = Effect.map(settings.view, (items) => ({ settings: items }))
    return handlers
      .handle("info", () => info)
      .handle("metrics", () =>
        Effect.gen(function* () {
          const history = yield* sampler.history
          const latest = history.at(-1)
          const memory = process.memoryUsage()
          const [l1, l5, l15] = Os.loadavg()
          return {
            sampleEverySeconds: SAMPLE_EVERY_SECONDS,
            host: {
              loadAverage: [l1 ?? 0, l5 ?? 0, l15 ?? 0] as const,
              cpuBusyPercent: latest?.cpuBusyPercent ?? null,
              cpus: Os.cpus().length,
              memory: { totalBytes: Os.totalmem(), freeBytes: Os.freemem(), usedBytes: Os.totalmem() - Os.freemem() }
            },
            process: {
              pid: process.pid,
              cpuPercent: latest?.processCpuPercent ?? null,
              rssBytes: memory.rss,
              heapUsedBytes: memory.heapUsed,
              heapTotalBytes: memory.heapTotal,
              externalBytes: memory.external
            },
            eventLoop: yield* sampler.lastEventLoop,
            history
          }
        })
      )
      .handle("service", () => serviceState())
      .handle("config", () => config)
      .handle("patchConfig", ({ payload }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentPrincipal
          // The audit row in the change's transaction: an acknowledged change and its row commit together.
          yield* settings.patch(payload, caller.id, (change) =>
            recordForRequest(audit, {
              ...auditActorFields(auditActorOf(caller)),
              action: "system.config",
              target: null,
              result: "success",
              details: { keys: change.keys, cleared: change.cleared, values: change.values }
            })
          )
          return yield* config
        }).pipe(Effect.catchTags({ SettingsRefused: refused, SystemStoreError: storeDefect }))
      )
  })
)
