/**
 * A replicate: another server's config, missions, mods or profiles copied
 * into this one (the target), planned first (`replicatePreview`), then done
 * with the target stopped, its name typed back, and a backup of the target
 * first (type `pre-restore`: a replicate is a restore from another server).
 *
 * What the target keeps whatever is copied: its hostname and instanceId (in
 * the copied config), its persistence (no `storage_*` folder is ever
 * copied), its BattlEye settings (RCon port and password live there), and
 * the ban and priority files Garrison writes for it. Files the target has
 * and the source does not are left alone.
 *
 * Mods: the source's launch folders (`-mod`, `-serverMod`) and its `keys/`
 * are copied and the target launches the same list; on the target they are
 * folders of its own, not workshop installs the mods plugin updates.
 */
import * as Effect from "effect/Effect"
import {
  type AuditActor,
  editServerConfig,
  findSetting,
  missionOf,
  parseServerConfig,
  processUp,
  profilesFolder,
  profilesInsideInstall,
  runOperationFor,
  ServerEntry,
  type ServerFiles
} from "@garrison/runtime"
import { type BackupWantedPath, isLogFile, type ServerBackupsShape } from "../backups/index.js"
import type { ServerHandle, ServersShape } from "../servers/index.js"
import { ReplicateComponentPlan, type ReplicateInput, ReplicatePreview, type ReplicatePreviewInput, ReplicateResult } from "./contract/Api.js"
import { copyPlanned, planTree, type TreePlan } from "./internal/copyTree.js"
import { checkTarget } from "./wipe.js"
import { DangerzoneConflict, DangerzoneInputRefused } from "./errors.js"

export interface ReplicateDeps {
  readonly servers: ServersShape
  readonly backups: ServerBackupsShape
}

type Component = ReplicatePreviewInput["components"][number]

const KEPT = [
  "the target's hostname and instanceId (set again in the copied config)",
  "its persistence: no storage_* folder is ever copied",
  "its BattlEye settings (BEServer_x64*.cfg: RCon port and password)",
  "its ban.txt and priority.txt (Garrison writes them for each server)",
  "files it has that the source does not"
]

const isPlainFolder = (path: string) => path !== "" && !path.startsWith("/") && !path.split(/[\\/]/).some((s) => s === ".." || s === "")
const decoder = new TextDecoder()

interface Side {
  readonly handle: ServerHandle
  readonly entry: ServerEntry
}

/** Each component's plan: the files it copies (`files` of `root`), where to, and what it leaves out. */
interface Planned {
  readonly component: Component
  readonly from: ServerFiles.ServerFiles
  readonly to: ServerFiles.ServerFiles
  readonly tree: TreePlan
  readonly targetOf: (path: string) => string
}

const skipNothing = () => undefined

const planComponent = (component: Component, source: Side, target: Side) =>
  Effect.gen(function* () {
    switch (component) {
      case "config": {
        const tree = yield* planTree(source.handle.files, source.entry.configFile, skipNothing)
        return { component, from: source.handle.files, to: target.handle.files, tree, targetOf: () => target.entry.configFile } satisfies Planned
      }
      case "mpmissions": {
        const tree = yield* planTree(source.handle.files, "mpmissions", (_path, name, kind) =>
          kind === "folder" && /^storage_/i.test(name) ? "persistence is never copied" : undefined
        )
        return { component, from: source.handle.files, to: target.handle.files, tree, targetOf: (p: string) => p } satisfies Planned
      }
      case "mods": {
        const files: Array<TreePlan["files"][number]> = []
        const skipped: Array<string> = []
        for (const folder of [...source.entry.mods, ...source.entry.serverMods]) {
          if (!isPlainFolder(folder)) {
            skipped.push(`${folder}: not a folder inside the install folder`)
            continue
          }
          const tree = yield* planTree(source.handle.files, folder.replace(/\\/g, "/"), skipNothing)
          files.push(...tree.files)
          skipped.push(...tree.skipped)
        }
        const keys = yield* planTree(source.handle.files, "keys", (_p, name, kind) => (kind === "file" && !/\.bikey$/i.test(name) ? "not a .bikey" : undefined))
        files.push(...keys.files)
        skipped.push(...keys.skipped)
        return { component, from: source.handle.files, to: target.handle.files, tree: { files, skipped }, targetOf: (p: string) => p } satisfies Planned
      }
      case "profiles": {
        const from = profilesFolder(source.entry)
        const to = profilesFolder(target.entry)
        const tree = yield* planTree(from.files, from.folder, (_path, name, kind) =>
          name === ".garrison"
            ? "Garrison's own working folder"
            : kind === "file" && isLogFile(name)
              ? "a log"
              : kind === "file" && /^beserver_x64.*\.cfg$/i.test(name)
                ? "the target keeps its own BattlEye settings"
                : kind === "file" && /^(ban|priority)\.txt$/i.test(name)
                  ? "Garrison writes it for each server"
                  : undefined
        )
        const prefix = from.folder === "" ? "" : `${from.folder}/`
        return {
          component,
          from: from.files,
          to: to.files,
          tree,
          targetOf: (p: string) => {
            const rest = p.startsWith(prefix) ? p.slice(prefix.length) : p
            return to.folder === "" ? rest : `${to.folder}/${rest}`
          }
        } satisfies Planned
      }
    }
  })

const sides = (servers: ServersShape, targetId: string, sourceId: string) =>
  Effect.gen(function* () {
    if (sourceId === targetId) return yield* new DangerzoneInputRefused({ field: "sourceServerId", message: "sourceServerId must be another server than this one" })
    const sourceHandle = yield* servers.get(sourceId).pipe(Effect.catchTag("ServerNotFound", () => Effect.fail(new DangerzoneInputRefused({ field: "sourceServerId", message: `sourceServerId: no server ${sourceId}` }))))
    const targetHandle = yield* servers.get(targetId)
    return { source: { handle: sourceHandle, entry: yield* sourceHandle.entry }, target: { handle: targetHandle, entry: yield* targetHandle.entry } }
  })

const missionName = (side: Side) =>
  side.handle.files.read(side.entry.configFile, { maxBytes: 1024 * 1024 }).pipe(
    Effect.map((bytes) => missionOf(parseServerConfig(decoder.decode(bytes)))?.template),
    Effect.orElseSucceed(() => undefined)
  )

const plan = (deps: ReplicateDeps, targetId: string, input: ReplicatePreviewInput) =>
  Effect.gen(function* () {
    const { source, target } = yield* sides(deps.servers, targetId, input.sourceServerId)
    const components = [...new Set(input.components)]
    const planned: Array<Planned> = []
    for (const component of components) planned.push(yield* planComponent(component, source, target))
    const blockers: Array<string> = []
    const warnings: Array<string> = []
    const targetBusy = yield* deps.servers.busy(targetId)
    if (targetBusy !== undefined) blockers.push(`${target.entry.name} is busy (${targetBusy}): stop it first`)
    const sourceState = yield* source.handle.state
    if (processUp(sourceState)) warnings.push(`${source.entry.name} is ${sourceState.status}: its files are copied as they are while it runs`)
    if (components.includes("config")) {
      const [from, to] = [yield* missionName(source), yield* missionName(target)]
      if (from !== undefined && to !== undefined && from.toLowerCase() !== to.toLowerCase()) {
        warnings.push(`the copied config names mission ${from} (the target now runs ${to}): the target's world for ${from} is another storage folder`)
      }
    }
    const preview = new ReplicatePreview({
      source: { id: source.entry.id, name: source.entry.name },
      target: { id: target.entry.id, name: target.entry.name },
      components: planned.map(
        (p) => new ReplicateComponentPlan({ component: p.component, files: p.tree.files.length, bytes: p.tree.files.reduce((s, f) => s + f.size, 0), skipped: p.tree.skipped.slice(0, 200) })
      ),
      kept: KEPT,
      blockers,
      warnings
    })
    return { preview, planned, source, target }
  })

export const replicatePreview = (deps: ReplicateDeps, targetId: string, input: ReplicatePreviewInput) =>
  Effect.map(plan(deps, targetId, input), (p) => p.preview)

/** The source's config with the target's hostname and instanceId. */
const copiedConfig = (source: Side, target: Side) =>
  Effect.gen(function* () {
    const text = decoder.decode(yield* source.handle.files.read(source.entry.configFile, { maxBytes: 1024 * 1024 }))
    const theirs = parseServerConfig(decoder.decode(yield* target.handle.files.read(target.entry.configFile, { maxBytes: 1024 * 1024 })))
    const copied = parseServerConfig(text)
    const hostname = findSetting(theirs, "hostname")?.value
    const instanceId = findSetting(theirs, "instanceId")?.value ?? 1
    return editServerConfig(copied, [
      ...(hostname === undefined ? [] : [{ key: "hostname", value: hostname }]),
      ...(findSetting(copied, "instanceId") !== undefined || instanceId !== 1 ? [{ key: "instanceId", value: instanceId }] : [])
    ])
  })

export const replicate = (deps: ReplicateDeps, targetId: string, input: ReplicateInput, by: AuditActor) =>
  Effect.gen(function* () {
    const { handle } = yield* checkTarget(deps.servers, targetId, input.confirmName, "replicating into it")
    const { preview, planned, source, target } = yield* plan(deps, targetId, input)
    const total = Math.max(1, preview.components.reduce((s, c) => s + c.bytes, 0))
    return yield* runOperationFor(handle.actor, "replicate", ({ progress }) =>
      Effect.gen(function* () {
        yield* progress(0.05, "backup of the target first")
        const inside = profilesInsideInstall(target.entry)
        const replaced: Array<BackupWantedPath> = [
          { root: "install", path: target.entry.configFile },
          { root: "install", path: "mpmissions" },
          inside === undefined ? { root: "profiles", path: "" } : { root: "install", path: inside }
        ]
        const backup = yield* deps.backups
          .backupNow(targetId, "pre-restore", by, replaced)
          .pipe(Effect.mapError((error) => (error._tag === "BackupStoreError" ? error : new DangerzoneConflict({ message: `nothing was copied: ${error.message}` }))))
        let done = 0
        yield* Effect.forEach(
          planned,
          (p) =>
            Effect.gen(function* () {
              yield* progress(0.1 + 0.85 * (done / total), `copying ${p.component}`)
              if (p.component === "config") {
                yield* target.handle.files.write(target.entry.configFile, yield* copiedConfig(source, target))
                return
              }
              const bytes = yield* copyPlanned(p.from, p.to, p.tree.files, (b) => progress(0.1 + 0.85 * ((done + b) / total), `copying ${p.component}`), p.targetOf)
              done += bytes
              if (p.component === "mods") {
                // orDie, an invariant: only the launch lists change (no folder or port moves: no conflict), and this operation holds the target (no delete).
                yield* deps.servers
                  .update(targetId, (current) => Effect.succeed(new ServerEntry({ ...current, mods: [...source.entry.mods], serverMods: [...source.entry.serverMods] })), {
                    actor: by,
                    reason: "replicate"
                  })
                  .pipe(Effect.orDie)
              }
            }),
          { discard: true }
        ).pipe(
          Effect.mapError((error) => new DangerzoneConflict({ message: `the replicate stopped halfway (${error.message}); the backup ${backup.filename} holds the target as it was` }))
        )
        return new ReplicateResult({ source: preview.source, target: preview.target, components: preview.components, kept: preview.kept, backup: backup.filename, warnings: preview.warnings })
      })
    ).pipe(Effect.catchTag("ActorError", (error) => Effect.fail(new DangerzoneConflict({ message: error.message }))))
  })
