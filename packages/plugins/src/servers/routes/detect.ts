/**
 * `POST /api/servers/detect`: read an install and propose an entry, saving
 * nothing. It warns (rather than refuses) when an entry already has the
 * folder, or the folder could not be one (a system folder, Garrison's own):
 * detecting is how an admin finds out what is there. It reads the folder,
 * so a caller who may not choose install folders (see hostFields) may
 * detect only inside `SERVERS_ROOT`; the route checks that first.
 */
import { BadRequest, defaultStopPolicy, type HostFolders, type ServerEntry } from "@garrison/runtime"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import { DEFAULTS } from "../internal/entryInput.js"
import { defaultExecutable, isDirectory, isFile, modFolders, readBattlEyeRcon, readServerConfig } from "../internal/install.js"
import { entryNearFolder, folderInUseMessage, reservedFolderProblem } from "../internal/installFolder.js"
import { maskPassword } from "../internal/view.js"

const WINDOWS_EXECUTABLE = "DayZServer_x64.exe"

export const detect = (installDir: string, stored: ReadonlyArray<ServerEntry>, folders: HostFolders) =>
  Effect.gen(function* () {
    if (!NodePath.isAbsolute(installDir)) {
      return yield* Effect.fail(
        new BadRequest({ message: `installDir: must be an absolute path, got "${installDir}"`, details: [{ path: "installDir", message: "must be absolute" }] })
      )
    }
    if (!isDirectory(installDir)) {
      return yield* Effect.fail(
        new BadRequest({ message: `installDir: ${installDir} is not a folder`, details: [{ path: "installDir", message: "not a folder" }] })
      )
    }
    // Prefer this platform's binary, but recognise the other one (a copied install).
    const executable = [defaultExecutable, WINDOWS_EXECUTABLE, "DayZServer"].find((name) => isFile(NodePath.join(installDir, name)))
    const config = readServerConfig(installDir, DEFAULTS.configFile)
    const rcon = readBattlEyeRcon(installDir, DEFAULTS.battleyeDir, DEFAULTS.profilesDir)
    const near = entryNearFolder(stored, installDir)
    const reserved = reservedFolderProblem(installDir, folders)
    return {
      entry: {
        name: config?.hostname?.trim() || NodePath.basename(installDir),
        installDir: NodePath.normalize(installDir),
        executable: executable ?? defaultExecutable,
        configFile: DEFAULTS.configFile,
        gamePort: DEFAULTS.gamePort,
        profilesDir: DEFAULTS.profilesDir,
        battleyeDir: NodePath.relative(installDir, NodePath.dirname(rcon?.file ?? NodePath.join(installDir, DEFAULTS.battleyeDir, "x"))) || ".",
        mods: modFolders(installDir),
        serverMods: [],
        extraArgs: [],
        rcon:
          rcon?.port === undefined
            ? null
            : { protocol: "battleye" as const, host: rcon.host, port: rcon.port, password: maskPassword(rcon.password ?? "") },
        // An agent runs beside the game server, not in its folder: nothing here tells where it listens.
        agent: null,
        watchdog: true,
        stop: defaultStopPolicy
      },
      found: { executable: executable !== undefined, configFile: config !== undefined, battleyeConfig: rcon?.file ?? null },
      inUseBy: near === undefined ? null : { id: near.entry.id, name: near.entry.name },
      warnings: [
        ...(near === undefined ? [] : [`installDir: ${folderInUseMessage(installDir, near.entry, near.relation)}; creating this entry would be refused`]),
        ...(reserved === undefined ? [] : [`installDir: ${reserved}; creating this entry would be refused`])
      ]
    }
  })
