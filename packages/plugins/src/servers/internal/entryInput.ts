/**
 * Turning create and update bodies into a `ServerEntry`: defaults, the
 * binary check, and RCON settings filled in from the BattlEye config.
 */
import { type AgentSettings, BadRequest, defaultStopPolicy, type RconSettings, ServerEntry, serverEntryDefaults } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import { type AgentInput, type CreateServerBody, PASSWORD_MASK, type RconInput, type UpdateServerBody } from "../contract/fields.js"
import { InvalidServerEntry } from "../errors.js"
import type { LaunchFields } from "./hostFields.js"
import { defaultExecutable, isDirectory, isFile, readBattlEyeRcon } from "./install.js"

export const DEFAULTS = serverEntryDefaults

const invalid = (field: string, message: string) => Effect.fail(new InvalidServerEntry({ field, message }))

/** The install folder must be absolute and hold the binary; the error names the missing file. */
export const checkInstall = (installDir: string, executable: string) =>
  Effect.suspend(() => {
    if (!NodePath.isAbsolute(installDir)) return invalid("installDir", `must be an absolute path, got "${installDir}"`)
    if (!isDirectory(installDir)) return invalid("installDir", `${installDir} is not a folder`)
    const binary = NodePath.resolve(installDir, executable)
    if (!isFile(binary)) return invalid("executable", `the game server binary ${binary} does not exist`)
    return Effect.void
  })

const isKept = (password: string | undefined) => password === undefined || password === PASSWORD_MASK

/**
 * Whether a kept (omitted or masked) secret may go to a new destination:
 * never through the API (`same-destination`); an admin's restore of a
 * masked backup (`anywhere`), which cannot carry secrets and which only an
 * admin, who may read them anyway, can run.
 */
export type SecretsFollow = "same-destination" | "anywhere"

/**
 * RCON settings from what the client sent, what was stored and the BattlEye
 * config, in that order. No input and no BattlEye config: no RCON. An
 * omitted or masked password keeps the stored (or the file's) one only
 * while host and port stay what they were: 400 otherwise.
 */
export const resolveRcon = (
  input: RconInput | undefined,
  stored: RconSettings | undefined,
  where: { readonly installDir: string; readonly battleyeDir: string; readonly profilesDir: string },
  secrets: SecretsFollow = "same-destination"
): Effect.Effect<RconSettings | undefined, InvalidServerEntry> =>
  Effect.suspend(() => {
    const fromFile = readBattlEyeRcon(where.installDir, where.battleyeDir, where.profilesDir)
    if (input === undefined) {
      if (stored !== undefined) return Effect.succeed(stored)
      if (fromFile?.port === undefined) return Effect.succeed(undefined)
      return Effect.succeed({ protocol: "battleye" as const, host: fromFile.host, port: fromFile.port, password: fromFile.password ?? "" })
    }
    const port = input.port ?? stored?.port ?? fromFile?.port
    if (port === undefined) return invalid("rcon.port", "not given and not found in the BattlEye config")
    const host = input.host ?? stored?.host ?? fromFile?.host ?? "127.0.0.1"
    const kept = stored?.password ?? fromFile?.password ?? ""
    if (secrets === "same-destination" && isKept(input.password) && kept !== "") {
      // A kept password goes only where it went before: a new destination must come with its own.
      const before = stored ?? (fromFile?.port === undefined ? undefined : { host: fromFile.host, port: fromFile.port })
      if (before === undefined || before.host !== host || before.port !== port) {
        return invalid("rcon.password", "the RCon host or port changed: send the password for the new destination (a stored password never follows a new one)")
      }
    }
    return Effect.succeed({
      protocol: input.protocol ?? stored?.protocol ?? "battleye",
      host,
      port,
      password: isKept(input.password) ? kept : input.password!
    })
  })

/** The agent from what the client sent and what was stored: a new agent needs its URL; an omitted or masked key keeps the stored one while the URL stays. */
export const resolveAgent = (
  input: AgentInput | undefined,
  stored: AgentSettings | undefined,
  secrets: SecretsFollow = "same-destination"
): Effect.Effect<AgentSettings | undefined, InvalidServerEntry> => {
  if (input === undefined) return Effect.succeed(stored)
  const url = input.url ?? stored?.url
  if (url === undefined) return invalid("agent.url", "required for a new agent (for example http://127.0.0.1:9100)")
  if (secrets === "same-destination" && isKept(input.apiKey) && stored !== undefined && stored.apiKey !== "" && stored.url !== url) {
    return invalid("agent.apiKey", "the agent URL changed: send the key for the new agent (a stored key never follows a new URL)")
  }
  return Effect.succeed({ url, apiKey: isKept(input.apiKey) ? (stored?.apiKey ?? "") : input.apiKey! })
}

export const entryFromCreate = (id: string, body: CreateServerBody): Effect.Effect<ServerEntry, InvalidServerEntry> =>
  Effect.gen(function* () {
    const executable = body.executable ?? defaultExecutable
    yield* checkInstall(body.installDir, executable)
    const profilesDir = body.profilesDir ?? DEFAULTS.profilesDir
    const battleyeDir = body.battleyeDir ?? DEFAULTS.battleyeDir
    const rcon = yield* resolveRcon(body.rcon, undefined, { installDir: body.installDir, battleyeDir, profilesDir })
    const agent = yield* resolveAgent(body.agent, undefined)
    return new ServerEntry({
      id,
      name: body.name,
      installDir: NodePath.normalize(body.installDir),
      executable,
      configFile: body.configFile ?? DEFAULTS.configFile,
      gamePort: body.gamePort ?? DEFAULTS.gamePort,
      profilesDir,
      battleyeDir,
      mods: body.mods ?? [],
      serverMods: body.serverMods ?? [],
      extraArgs: body.extraArgs ?? [],
      rcon,
      agent,
      watchdog: body.watchdog ?? true,
      stop: { ...defaultStopPolicy, ...body.stop }
    })
  })

export const entryFromUpdate = (existing: ServerEntry, body: UpdateServerBody): Effect.Effect<ServerEntry, InvalidServerEntry> =>
  Effect.gen(function* () {
    const installDir = body.installDir ?? existing.installDir
    const executable = body.executable ?? existing.executable
    // Only a changed location is checked: a server being reinstalled must stay editable.
    if (body.installDir !== undefined || body.executable !== undefined) yield* checkInstall(installDir, executable)
    const profilesDir = body.profilesDir ?? existing.profilesDir
    const battleyeDir = body.battleyeDir ?? existing.battleyeDir
    const rcon =
      body.rcon === null
        ? undefined
        : body.rcon === undefined
          ? existing.rcon
          : yield* resolveRcon(body.rcon, existing.rcon, { installDir, battleyeDir, profilesDir })
    const agent = body.agent === null ? undefined : yield* resolveAgent(body.agent, existing.agent)
    return new ServerEntry({
      ...existing,
      name: body.name ?? existing.name,
      installDir: NodePath.normalize(installDir),
      executable,
      configFile: body.configFile ?? existing.configFile,
      gamePort: body.gamePort ?? existing.gamePort,
      profilesDir,
      battleyeDir,
      mods: body.mods ?? existing.mods,
      serverMods: body.serverMods ?? existing.serverMods,
      extraArgs: body.extraArgs ?? existing.extraArgs,
      rcon,
      agent,
      watchdog: body.watchdog ?? existing.watchdog,
      stop: { ...existing.stop, ...body.stop }
    })
  })

export const invalidToBadRequest = (error: InvalidServerEntry) =>
  new BadRequest({ message: `${error.field}: ${error.message}`, details: [{ path: error.field, message: error.message }] })

/** The launch fields a create body would give an entry, before anything on the host is looked at. */
export const launchFieldsOfCreate = (body: CreateServerBody): LaunchFields => ({
  installDir: NodePath.normalize(body.installDir),
  executable: body.executable ?? defaultExecutable,
  configFile: body.configFile ?? DEFAULTS.configFile,
  profilesDir: body.profilesDir ?? DEFAULTS.profilesDir,
  battleyeDir: body.battleyeDir ?? DEFAULTS.battleyeDir,
  mods: body.mods ?? [],
  serverMods: body.serverMods ?? [],
  extraArgs: body.extraArgs ?? []
})

/** The launch fields an update body would leave an entry with, likewise. */
export const launchFieldsOfUpdate = (existing: ServerEntry, body: UpdateServerBody): LaunchFields => ({
  installDir: NodePath.normalize(body.installDir ?? existing.installDir),
  executable: body.executable ?? existing.executable,
  configFile: body.configFile ?? existing.configFile,
  profilesDir: body.profilesDir ?? existing.profilesDir,
  battleyeDir: body.battleyeDir ?? existing.battleyeDir,
  mods: body.mods ?? existing.mods,
  serverMods: body.serverMods ?? existing.serverMods,
  extraArgs: body.extraArgs ?? existing.extraArgs
})
