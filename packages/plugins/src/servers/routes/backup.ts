/**
 * Config backup of server entries (admin). Passwords leave masked; a
 * restore keeps the stored password of an entry it updates, and reads a new
 * entry's from its BattlEye config.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { ServerEntry, Supervisor } from "@garrison/runtime"
import { ServersApi } from "../contract/Api.js"
import { PASSWORD_MASK } from "../contract/fields.js"
import { invalidToBadRequest, resolveAgent, resolveRcon } from "../internal/entryInput.js"
import { installDirInUse, installDirReserved, portsInUse, storeDefect } from "../internal/httpErrors.js"
import { entryView } from "../internal/view.js"
import { ServerEntries } from "../ServerEntries.js"

export const ServersBackupRoutes = HttpApiBuilder.group(ServersApi, "serversBackup", (handlers) =>
  Effect.gen(function* () {
    const entries = yield* ServerEntries
    const supervisor = yield* Supervisor
    return handlers
      .handle("backup", () =>
        Effect.gen(function* () {
          const stored = yield* entries.list.pipe(Effect.catchTag("ServerStoreError", storeDefect))
          return {
            kind: "garrison.servers" as const,
            version: 1 as const,
            exportedAt: new Date(yield* Clock.currentTimeMillis).toISOString(),
            servers: stored.map((entry) => ({ id: entry.id, ...entryView(entry) }))
          }
        })
      )
      .handle("restore", ({ payload }) =>
        Effect.gen(function* () {
          const stored = new Map((yield* entries.list.pipe(Effect.catchTag("ServerStoreError", storeDefect))).map((e) => [e.id, e]))
          const restored = yield* Effect.forEach(payload.servers, ({ id, rcon, agent, ...fields }) =>
            Effect.gen(function* () {
              const settings =
                rcon === null
                  ? undefined
                  : yield* resolveRcon(
                      { ...rcon, password: rcon.password === "" ? PASSWORD_MASK : rcon.password },
                      stored.get(id)?.rcon,
                      fields,
                      "anywhere"
                    ).pipe(Effect.mapError(invalidToBadRequest))
              // A masked (or empty) key keeps the stored one; a new agent's key is entered again with PATCH.
              const agentSettings =
                agent === undefined
                  ? stored.get(id)?.agent
                  : agent === null
                  ? undefined
                  : yield* resolveAgent(
                      { url: agent.url, apiKey: agent.apiKey === "" ? PASSWORD_MASK : agent.apiKey },
                      stored.get(id)?.agent,
                      "anywhere"
                    ).pipe(Effect.mapError(invalidToBadRequest))
              return new ServerEntry({ id, ...fields, rcon: settings, agent: agentSettings })
            })
          )
          yield* entries.upsertAll(restored).pipe(
            Effect.catchTags({
              ServerStoreError: storeDefect,
              InstallDirInUse: (e) => Effect.fail(installDirInUse(e)),
              InstallDirReserved: (e) => Effect.fail(installDirReserved(e)),
              PortsInUse: (e) => Effect.fail(portsInUse(e))
            })
          )
          // Actors pick up their new entries (applied at the next start); errors here are not the restore's.
          yield* Effect.forEach(restored, (entry) => Effect.ignoreLogged(supervisor.ensure(entry)), { discard: true })
          return {
            created: restored.filter((e) => !stored.has(e.id)).map((e) => e.id),
            updated: restored.filter((e) => stored.has(e.id)).map((e) => e.id)
          }
        })
      )
  })
)
