/**
 * A server's mods as every part of `Mods` reaches them: looked up with the
 * server (`modsOf`, `find`), the entry's launch lists following them
 * (`syncLaunch`), and the two guards on the server's files. Separate so the
 * jobs, the quick changes and the rollout steps share one way in.
 */
import * as Effect from "effect/Effect"
import { ActorError } from "@garrison/runtime"
import type { ServerHandle, ServersShape } from "../../servers/index.js"
import { ModConflict, ModNotFound } from "../errors.js"
import { withLaunch } from "./launch.js"
import type { ModStore } from "./store.js"

/** The service's one-change-at-a-time gate (its semaphore is made in `Mods.ts`). */
export type Serialized = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>

export interface ServerModsDeps {
  readonly servers: ServersShape
  readonly store: ModStore
}

export const makeServerMods = ({ servers, store }: ServerModsDeps) => {
  const modsOf = (serverId: string) => Effect.zipRight(servers.entry(serverId), store.list(serverId))
  const find = (serverId: string, mod: string) =>
    Effect.flatMap(modsOf(serverId), (mods) => {
      const found = mods.find((m) => m.workshopId === mod || m.name.toLowerCase() === mod.toLowerCase())
      return found === undefined ? Effect.fail(new ModNotFound({ serverId, mod })) : Effect.succeed(found)
    })

  /** The entry's launch lists from the installed mods (`internal/launch`); `gone` are folders of mods just removed. */
  const syncLaunch = (serverId: string, gone: ReadonlyArray<string> = []) =>
    Effect.gen(function* () {
      const installed = yield* store.list(serverId)
      // The launch lists name folders inside the install: no folder or port moves, so no conflict can arise.
      // The controller's own follow-up (the mod change's row names who asked): the entry's row has no actor.
      yield* servers.update(serverId, (current) => Effect.succeed(withLaunch(current, installed, gone)), { actor: null, reason: "mods" }).pipe(
        Effect.catchTags({
          InstallDirInUse: Effect.die,
          InstallDirReserved: Effect.die,
          PortsInUse: Effect.die,
          // Deleted meanwhile: it has no launch lists left to follow its mods.
          ServerNotFound: () => Effect.void,
          ServerUnreadable: () => Effect.void
        })
      )
    })

  /** 409 at once when the server's files may not change now: the check before a job begins (the work itself holds them). */
  const refuseWhileBusy = (serverId: string, what: string) =>
    Effect.gen(function* () {
      const busy = yield* servers.busy(serverId)
      if (busy !== undefined) return yield* new ModConflict({ message: `cannot ${what} while server ${serverId} is busy (${busy}): stop it first` })
    })

  /** Runs `work` on the server's files while the actor holds them for it (no start meanwhile); `within`: a rollout's own work. */
  const withIdleFiles = <A, E, R>(serverId: string, what: string, work: (handle: ServerHandle) => Effect.Effect<A, E, R>, within?: "mod-rollout") =>
    servers.whileIdle(serverId, "mod change", work, within === undefined ? undefined : { within }).pipe(
      Effect.catchIf(
        (error): error is ActorError => error instanceof ActorError,
        (refused) => Effect.fail(new ModConflict({ message: `cannot ${what} on server ${serverId}: ${refused.message}` }))
      )
    )

  return { modsOf, find, syncLaunch, refuseWhileBusy, withIdleFiles }
}

export type ServerMods = ReturnType<typeof makeServerMods>
