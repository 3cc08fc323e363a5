import * as Schema from "effect/Schema"
import { storeErrorFields, storeErrorMapper } from "@garrison/runtime"

/** The database refused a servers read or write. */
export class ServerStoreError extends Schema.TaggedError<ServerStoreError>()("ServerStoreError", storeErrorFields) {}

/** An entry that cannot be launched as given (missing binary, relative folder, ...). */
export class InvalidServerEntry extends Schema.TaggedError<InvalidServerEntry>()("InvalidServerEntry", {
  field: Schema.String,
  message: Schema.String
}) {}

/** Another entry already uses this install folder (compared as the file system resolves it). */
export class InstallDirInUse extends Schema.TaggedError<InstallDirInUse>()("InstallDirInUse", {
  installDir: Schema.String,
  /** The entry that has the folder (or one inside it, or one holding it). */
  serverId: Schema.String,
  name: Schema.String,
  relation: Schema.Literal("same", "inside", "contains")
}) {}

/** An install folder that is, holds or lies inside a system folder or one of Garrison's own. */
export class InstallDirReserved extends Schema.TaggedError<InstallDirReserved>()("InstallDirReserved", {
  installDir: Schema.String,
  reason: Schema.String
}) {}

/** Another entry already takes one of this entry's ports (game port and the three after it, RCon port). */
export class PortsInUse extends Schema.TaggedError<PortsInUse>()("PortsInUse", {
  field: Schema.Literal("gamePort", "rcon.port"),
  port: Schema.Int,
  /** The entry that takes the port, and what it takes. */
  serverId: Schema.String,
  name: Schema.String,
  ports: Schema.String
}) {}

export const storeError = storeErrorMapper(ServerStoreError)
