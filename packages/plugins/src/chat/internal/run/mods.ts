/** The server's mods: the list, jobs and pending updates, and install / uninstall / enable / disable by Workshop id. */
import * as Effect from "effect/Effect"
import { auditActorOf } from "@garrison/runtime"
import { oneOf, workshopId } from "../params.js"
import { asRefusal } from "../refusals.js"
import type { ServerRunner } from "./context.js"

export const mods: ServerRunner = (_call, server, services) =>
  Effect.gen(function* () {
    const list = yield* asRefusal(services.mods.list(server.id))
    const items = list.items.map((m) => ({ workshopId: m.workshopId, name: m.name, title: m.title, type: m.type, enabled: m.enabled, loadOrder: m.loadOrder }))
    return {
      message: items.length === 0 ? "No mods installed." : items.map((m) => `${m.loadOrder}. ${m.title} (${m.workshopId})${m.enabled ? "" : " [disabled]"}`).join("\n"),
      mods: items
    }
  })

export const modStatus: ServerRunner = (_call, server, services) =>
  Effect.gen(function* () {
    const jobs = (yield* services.mods.jobs).filter((job) => job.serverId === server.id)
    const due = yield* asRefusal(services.mods.due(server.id))
    const running = jobs.filter((job) => job.state === "queued" || job.state === "downloading" || job.state === "installing")
    const lines = [
      ...running.map((job) => `${job.kind} ${job.workshopId}: ${job.state} ${Math.round(job.percent)}%`),
      ...due.map((mod) => `${mod.title} (${mod.workshopId}): update available`)
    ]
    return {
      message: lines.length === 0 ? "No mod jobs running and no updates pending." : lines.join("\n"),
      jobs: jobs.map((job) => ({ id: job.id, kind: job.kind, workshopId: job.workshopId, state: job.state, percent: job.percent, error: job.error })),
      updatesDue: due.map((mod) => ({ workshopId: mod.workshopId, title: mod.title }))
    }
  })

export const modInstall: ServerRunner = (call, server, services) =>
  Effect.gen(function* () {
    const id = yield* workshopId(call.params)
    const type = yield* oneOf(call.params, "type", ["client", "server"], "client")
    const job = yield* asRefusal(services.mods.install(server.id, { workshopId: id, type }, auditActorOf(call.caller)))
    return { message: `Installing ${id} (job ${job.id}); ask modStatus for progress.`, job: { id: job.id, state: job.state } }
  })

export const modUninstall: ServerRunner = (call, server, services) =>
  Effect.gen(function* () {
    const id = yield* workshopId(call.params)
    const mod = yield* asRefusal(services.mods.uninstall(server.id, id, auditActorOf(call.caller)))
    return { message: `Uninstalled ${mod.title} (${id}).`, workshopId: id }
  })

const enabled =
  (on: boolean): ServerRunner =>
  (call, server, services) =>
    Effect.gen(function* () {
      const id = yield* workshopId(call.params)
      const mod = yield* asRefusal(services.mods.patch(server.id, id, { enabled: on }))
      return { message: `${mod.title} (${id}) ${on ? "enabled" : "disabled"}; it takes effect at the next start.`, workshopId: id, enabled: mod.enabled }
    })

export const modEnable = enabled(true)
export const modDisable = enabled(false)
