/**
 * The servers plugin provides the runtime's `ServerFileSync` (the one
 * mechanism that keeps generated files such as `ban.txt` and `priority.txt`
 * current) because it knows the install folders: one per folder, the first
 * entry of each (entries stored before the one-entry-per-folder rule may
 * share one, and the files in it are one file for all of them). The files
 * are written on the local disk; a remote server's will come from its
 * handle (the agent) through `filesFor`.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ServerFileSync } from "@garrison/runtime"
import { oneEntryPerInstall, ServerEntries } from "./ServerEntries.js"

/** `ServerFileSync` over the stored entries (any `ServerEntries`: the stub plugins of tests reuse it). */
export const serverFileSyncLayer: Layer.Layer<ServerFileSync, never, ServerEntries> = Layer.unwrapEffect(
  Effect.map(ServerEntries, (entries) =>
    ServerFileSync.layer({
      folders: entries.list.pipe(
        Effect.map((list) => oneEntryPerInstall(list).map((entry) => entry.installDir)),
        // Nothing to write into this time; the next change, expiry or start tries again.
        Effect.catchAll((error) => Effect.as(Effect.logWarning(`servers: cannot list the install folders for generated files: ${error.message}`), []))
      )
    })
  )
)

/** Before every start and restart: every generated file written into the server's folder, or the start refused naming it. */
export const serverFileSyncHook = ServerFileSync.beforeServerStart
