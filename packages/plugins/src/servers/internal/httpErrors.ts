/**
 * Actor refusals and store failures as HTTP errors:
 * - already-running, not-running, hook-failed (a plugin refused the start,
 *   e.g. it could not write ban.txt: the caller must fix state, not retry
 *   blindly), invalid-entry (a stored launch parameter the launch rules
 *   refuse: fix the entry) and removed → 409 with the actor's message;
 * - rcon-unavailable (running, session not up yet) and rcon-failed (the
 *   server did not answer in time) → 503: try again shortly;
 * - spawn-failed, stop-failed, restart-failed → 500 with the reason.
 */
import { type ActorError, Conflict, NotFound, Unavailable } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import { ServerFault } from "../contract/fields.js"
import type { InstallDirInUse, PortsInUse, ServerNotFound, ServerStoreError } from "../errors.js"
import { folderInUseMessage } from "./installFolder.js"

export type ActorHttpError = Conflict | Unavailable | ServerFault

export const actorErrorToHttp = (error: ActorError): ActorHttpError => {
  const details = { reason: error.reason }
  switch (error.reason) {
    case "already-running":
    case "not-running":
    case "hook-failed":
    case "invalid-entry":
    case "ports-in-use":
    case "busy":
    case "cancelled":
    case "removed":
      return new Conflict({ message: error.message, details })
    case "rcon-unavailable":
    case "rcon-failed":
      return new Unavailable({ message: error.message, details })
    case "spawn-failed":
    case "stop-failed":
    case "restart-failed":
      return new ServerFault({ message: error.message, details })
  }
}

/** The status and code a batch result reports, as the single-server route would answer. */
export const httpStatusOf = (error: ActorHttpError | NotFound): { readonly status: number; readonly error: string } => {
  switch (error._tag) {
    case "NotFound":
      return { status: 404, error: "not-found" }
    case "Conflict":
      return { status: 409, error: "conflict" }
    case "Unavailable":
      return { status: 503, error: "unavailable" }
    case "ServerFault":
      return { status: 500, error: "internal" }
  }
}

export const notFound = (error: ServerNotFound) => new NotFound({ message: `no server ${error.serverId}` })

/** Store failures are real faults: a 500 with a request id, from the host. */
export const storeDefect = (error: ServerStoreError) => Effect.die(error)

/** A second entry for one install folder: 409 naming the entry that has it. */
export const installDirInUse = (error: InstallDirInUse) =>
  new Conflict({
    message: `installDir: ${folderInUseMessage(error.installDir, { id: error.serverId, name: error.name })}`,
    details: { field: "installDir", serverId: error.serverId, name: error.name }
  })

/** Another entry takes one of this entry's ports: 409 naming the port and that entry. */
export const portsInUse = (error: PortsInUse) =>
  new Conflict({
    message:
      `${error.field}: port ${error.port} is already taken by server "${error.name}" (${error.serverId}), ` +
      `which uses ${error.ports}; each server needs ports of its own (its game port and the three after it, and its RCon port)`,
    details: { field: error.field, port: error.port, serverId: error.serverId, name: error.name }
  })
