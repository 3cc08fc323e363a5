/** The permissions the servers plugin owns: what may be done to a game server. */
import type { PermissionDefinition } from "@garrison/runtime"

export const SERVER_PERMISSIONS: ReadonlyArray<PermissionDefinition> = [
  { name: "server.deploy", description: "Create, update, delete, deploy and rebuild server entries" },
  { name: "server.start", description: "Start game servers" },
  { name: "server.stop", description: "Stop game servers" },
  { name: "server.restart", description: "Restart game servers, manage backups and schedules" },
  { name: "server.rcon", description: "Send RCON commands, lock and unlock, run admin actions" },
  { name: "server.config", description: "Read and edit server configuration and files" },
  { name: "server.view", description: "View server details, logs and metrics" }
]
