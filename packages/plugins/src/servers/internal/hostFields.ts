/**
 * The fields of a server entry that decide what runs on the host and where
 * it reaches: `admin`'s alone. `server.deploy` (on one server or all) keeps
 * the rest (name, game port, mods inside the install folder, watchdog, stop
 * timings, launch flags that name no path).
 *
 * A host-level field is one a caller could use to run another program,
 * read or write outside the server's own folder, or send the server's
 * secrets elsewhere:
 * - `executable` and `installDir`: set or changed (on a new entry, an
 *   install folder outside `SERVERS_ROOT`, or anywhere when it is not set);
 * - `configFile`, `profilesDir`, `battleyeDir`: set or changed to a path
 *   outside the install folder;
 * - `mods`, `serverMods`: a new entry that is absolute or climbs out (`..`);
 * - `extraArgs`: a new `-name=value` whose value names a path;
 * - `rcon.host`, `rcon.port`, `agent.url`: given by the caller and not what
 *   is stored (a new entry reads RCON's from its BattlEye config).
 */
import { ADMIN, Forbidden, grants, type LaunchFields as RuntimeLaunchFields, type Principal, type ServerEntry } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import type { AgentInput, RconInput } from "../contract/fields.js"
import { defaultExecutable } from "./install.js"
import { relationOf } from "./installFolder.js"

/** What the caller sent about RCON and the agent (omitted, null, or the fields given). */
export interface DestinationInput {
  readonly rcon?: RconInput | null | undefined
  readonly agent?: AgentInput | null | undefined
}

/** The launch fields of an entry (the runtime's `LaunchFields`), as stored or as a request would make them. */
export type LaunchFields = typeof RuntimeLaunchFields.Type

/** Each field, as the 403 names it, and why it is admin's. */
export interface HostField {
  readonly field: string
  readonly why: string
}

/** Whether `path` (relative to `root`, or absolute) names `root` or something in it, by name (nothing is looked at on disk). */
const isInside = (root: string, path: string) => {
  const relation = relationOf(NodePath.resolve(root, path), NodePath.resolve(root))
  return relation === "same" || relation === "inside"
}

/** A value that names a file or folder: a separator, a home or parent reference. */
const namesPath = (value: string) => /[\\/]/.test(value) || value.startsWith("~") || value === ".."

/** The value of `-name=value`, or undefined for a bare flag. */
const valueOf = (argument: string) => {
  const at = argument.indexOf("=")
  return at === -1 ? undefined : argument.slice(at + 1)
}

/**
 * The host-level fields `after` sets or changes compared with `before`
 * (undefined: a new entry), given what the caller sent for RCON and the
 * agent and the configured servers root.
 */
export const hostFieldsChanged = (
  before: (LaunchFields & Pick<ServerEntry, "rcon" | "agent">) | undefined,
  after: LaunchFields,
  sent: DestinationInput,
  serversRoot: string | undefined
): ReadonlyArray<HostField> => {
  const found: Array<HostField> = []
  const root = after.installDir
  // A relative folder is refused (400) by the install check that follows; nothing here can be resolved against it.
  if (!NodePath.isAbsolute(root)) return found

  if (before === undefined) {
    if (serversRoot === undefined || !isInside(serversRoot, root) || NodePath.resolve(root) === NodePath.resolve(serversRoot)) {
      found.push({
        field: "installDir",
        why: serversRoot === undefined ? "SERVERS_ROOT is not set, so only an admin chooses install folders" : `outside SERVERS_ROOT (${serversRoot})`
      })
    }
  } else if (before.installDir !== after.installDir) {
    found.push({ field: "installDir", why: "the install folder decides what runs and which files the server's routes reach" })
  }
  if (before === undefined ? after.executable !== defaultExecutable : before.executable !== after.executable) {
    found.push({ field: "executable", why: "the program the controller runs" })
  }
  for (const field of ["configFile", "profilesDir", "battleyeDir"] as const) {
    const changed = before === undefined || before[field] !== after[field] || before.installDir !== after.installDir
    if (changed && !isInside(root, after[field])) found.push({ field, why: "a path outside the install folder" })
  }
  for (const field of ["mods", "serverMods"] as const) {
    const kept = new Set(before?.[field] ?? [])
    after[field].forEach((mod, index) => {
      if (!kept.has(mod) && (NodePath.isAbsolute(mod) || !isInside(root, mod))) found.push({ field: `${field}[${index}]`, why: "a mod folder outside the install folder" })
    })
  }
  const keptArgs = new Set(before?.extraArgs ?? [])
  after.extraArgs.forEach((argument, index) => {
    const value = valueOf(argument)
    if (!keptArgs.has(argument) && value !== undefined && namesPath(value)) found.push({ field: `extraArgs[${index}]`, why: "a launch parameter that names a path" })
  })
  if (sent.rcon !== undefined && sent.rcon !== null) {
    if (sent.rcon.host !== undefined && sent.rcon.host !== before?.rcon?.host) found.push({ field: "rcon.host", why: "where the RCon password is sent" })
    if (sent.rcon.port !== undefined && sent.rcon.port !== before?.rcon?.port) found.push({ field: "rcon.port", why: "where the RCon password is sent" })
  }
  if (sent.agent !== undefined && sent.agent !== null && sent.agent.url !== undefined && sent.agent.url !== before?.agent?.url) {
    found.push({ field: "agent.url", why: "where the agent key is sent" })
  }
  return found
}

/**
 * Fails with 403 naming the first host-level field (and listing them all)
 * when a caller who is not `admin` sets or changes any; checked before
 * anything on the host is looked at, so a refused request learns nothing
 * about the folders it names.
 */
export const requireAdminForHostFields = (
  caller: Principal,
  before: (LaunchFields & Pick<ServerEntry, "rcon" | "agent">) | undefined,
  after: LaunchFields,
  sent: DestinationInput,
  serversRoot: string | undefined
): Effect.Effect<void, Forbidden> => {
  if (grants(caller.permissions, ADMIN)) return Effect.void
  const found = hostFieldsChanged(before, after, sent, serversRoot)
  if (found.length === 0) return Effect.void
  const first = found[0]!
  return Effect.fail(
    new Forbidden({
      message: `${first.field}: only an admin may set or change it (${first.why})${found.length > 1 ? `; also ${found.slice(1).map((f) => f.field).join(", ")}` : ""}`,
      details: { field: first.field, fields: found.map((f) => f.field) }
    })
  )
}
