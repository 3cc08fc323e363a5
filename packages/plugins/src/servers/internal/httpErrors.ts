/**
 * This plugin's own refusals as HTTP errors (actor refusals map by the
 * runtime's `actorErrorToHttp`, the same for every plugin).
 */
import { type ActorHttpError, BadRequest, Conflict, type ServerUnreadable } from "@garrison/runtime"
import type { InstallDirInUse, InstallDirReserved, PortsInUse } from "../errors.js"
import { folderInUseMessage } from "./installFolder.js"

/** The status and code a batch result reports, as the single-server route would answer. */
export const httpStatusOf = (error: ActorHttpError | ServerUnreadable): { readonly status: number; readonly error: string } => {
  switch (error._tag) {
    case "ServerNotFound":
      return { status: 404, error: "not-found" }
    case "Conflict":
    case "ServerUnreadable":
      return { status: 409, error: "conflict" }
    case "Unavailable":
      return { status: 503, error: "unavailable" }
    case "ServerFault":
      return { status: 500, error: "internal" }
    case "BadGateway":
      return { status: 502, error: "bad-gateway" }
    case "GatewayTimeout":
      return { status: 504, error: "gateway-timeout" }
  }
}

/** Store failures are real faults: a 500 with a request id, from the host (the runtime's one mapper, named here for the routes). */
export { storeDefect } from "@garrison/runtime"

// The two conflicts below are values, not `conflictWith` mappers: the routes fail with them
// (`Effect.fail(installDirInUse(e))`) and their message is built from several fields.

/** A second entry for one install folder: 409 naming the entry that has it. */
export const installDirInUse = (error: InstallDirInUse) =>
  new Conflict({
    message: `installDir: ${folderInUseMessage(error.installDir, { id: error.serverId, name: error.name }, error.relation)}`,
    details: { field: "installDir", serverId: error.serverId, name: error.name, relation: error.relation }
  })

/** An install folder in a system folder or one of Garrison's own: 400 naming why. */
export const installDirReserved = (error: InstallDirReserved) =>
  new BadRequest({ message: `installDir: ${error.reason}`, details: { field: "installDir" } })

/** Another entry takes one of this entry's ports: 409 naming the port and that entry. */
export const portsInUse = (error: PortsInUse) =>
  new Conflict({
    message:
      `${error.field}: port ${error.port} is already taken by server "${error.name}" (${error.serverId}), ` +
      `which uses ${error.ports}; each server needs ports of its own (its game port and the three after it, and its RCon port)`,
    details: { field: error.field, port: error.port, serverId: error.serverId, name: error.name }
  })
