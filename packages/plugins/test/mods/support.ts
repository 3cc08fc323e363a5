/**
 * An in-process controller with the servers (fake launcher), platform and
 * mods plugins; a small `steamcmd.sh` that "downloads" workshop items from
 * folders the test lays out (in SteamCMD's words and folders); and the
 * example stand-in's Steam Web API serving the same items' details. The
 * full SteamCMD stand-in needs a build, so the end-to-end tests use it.
 */
import { callWithText, eventually, fakeFleet, tempDir, testController } from "@garrison/testkit"
import type * as SqlClient from "@effect/sql/SqlClient"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { defaultCatalogue, startWebApi, writeCatalogue } from "@garrison/example-sim-steamcmd"
import { ModsPlugin } from "../../src/mods/index.js"
import { PlatformPlugin } from "../../src/platform/index.js"

export const ADMIN = "root:admin"
export const MODDER = "max:mods.view,mods.install,server.start,server.stop,server.deploy"
export const VIEWER = "vic:mods.view"

/**
 * The fake SteamCMD: `+workshop_download_item 221100 <id>` copies
 * `<fake>/items/<id>/` to `<install dir>/steamapps/workshop/content/221100/<id>/`
 * and prints SteamCMD's success line; an id without a folder is "File Not
 * Found". Every run's arguments are appended to `<fake>/args.log`.
 */
export interface FakeSteam {
  readonly path: string
  readonly dir: string
  /** Lays out item `id` (meta.cpp with `name`, one key per `keys`, one pbo); a new `version` changes the pbo. */
  readonly publish: (id: string, options: { readonly name: string; readonly keys?: ReadonlyArray<string>; readonly version?: number }) => void
  readonly runs: () => ReadonlyArray<string>
  /** Downloads take half a second from now on. */
  readonly slow: () => void
}

export const fakeSteam = (): FakeSteam => {
  const dir = tempDir("garrison-mods-steam-")
  const path = NodePath.join(dir, "steamcmd.sh")
  Fs.mkdirSync(NodePath.join(dir, "items"))
  Fs.writeFileSync(
    path,
    `#!/bin/sh
echo "$@" >> '${dir}/args.log'
echo "Loading Steam API...OK"
root=""
while [ $# -gt 0 ]; do
  case "$1" in
    +force_install_dir) root="$2"; shift 2 ;;
    +login) echo "Logging in user '$2' [U:1:0] to Steam Public...OK"; shift 3 ;;
    +workshop_download_item)
      id="$3"; shift 3
      [ "$1" = validate ] && shift
      echo "Downloading item $id ..."
      [ -f '${dir}/slow' ] && sleep 0.5
      if [ -d '${dir}/items/'"$id" ]; then
        target="$root/steamapps/workshop/content/221100/$id"
        rm -rf "$target"; mkdir -p "$target"; cp -R '${dir}/items/'"$id"/. "$target"/
        bytes=$(du -sb "$target" | cut -f1)
        echo "Success. Downloaded item $id to \\"$target\\" ($bytes bytes) "
      else
        echo "ERROR! Download item $id failed (File Not Found)."
      fi ;;
    *) shift ;;
  esac
done
exit 0
`,
    { mode: 0o755 }
  )
  return {
    path,
    dir,
    publish: (id, options) => {
      const item = NodePath.join(dir, "items", id)
      Fs.rmSync(item, { recursive: true, force: true })
      Fs.mkdirSync(NodePath.join(item, "addons"), { recursive: true })
      Fs.writeFileSync(NodePath.join(item, "meta.cpp"), `protocol = 1;\npublishedid = ${id};\nname = "${options.name}";\ntimestamp = ${options.version ?? 1};\n`)
      Fs.writeFileSync(NodePath.join(item, "addons", "data.pbo"), `item ${id} version ${options.version ?? 1}`)
      if ((options.keys ?? []).length > 0) Fs.mkdirSync(NodePath.join(item, "keys"))
      for (const key of options.keys ?? []) Fs.writeFileSync(NodePath.join(item, "keys", key), `key ${key}`)
    },
    slow: () => Fs.writeFileSync(NodePath.join(dir, "slow"), ""),
    runs: () => (Fs.existsSync(NodePath.join(dir, "args.log")) ? Fs.readFileSync(NodePath.join(dir, "args.log"), "utf8").trim().split("\n") : [])
  }
}

/** The stand-in's Web API over its default catalogue (CF 1559212036, COT 1564026768, ...), in a folder of its own. */
export const webApi = Effect.acquireRelease(
  Effect.promise(() => {
    const dir = tempDir("garrison-mods-api-")
    writeCatalogue(dir, defaultCatalogue())
    return startWebApi({ dir }).then((api) => ({ ...api, dir }))
  }),
  (api) => Effect.promise(() => api.close())
)

/** `dataDir`: the caller's (kept, for a restart on it); else a throw-away one. */
export const modsController = (steam: FakeSteam, webApiUrl: string, options: { readonly dataDir?: string } = {}) => {
  const fleet = fakeFleet()
  return {
    fleet,
    layer: testController<SqlClient.SqlClient>([fleet.plugin, PlatformPlugin, ModsPlugin], {
      dataPrefix: "garrison-mods-",
      ...(options.dataDir === undefined ? {} : { settings: { dataDir: options.dataDir } }),
      logLevel: LogLevel.Error,
      config: { STEAMCMD_PATH: steam.path, STEAM_WEB_API_URL: webApiUrl }
    })
  }
}

/** One request as a named caller: status, JSON body and its text (`as` is `"<user>:<perm,perm>"`). */
export const call = callWithText

interface Job {
  readonly id: string
  readonly state: string
  readonly error: string | null
  readonly mod: { readonly name: string } | null
}

/** Waits (real time) until the job has ended, and answers it. */
export const jobEnd = (id: string) =>
  Effect.map(
    eventually(
      call("GET", "/api/mods/install-status", { as: ADMIN }),
      (reply) => (reply.body as { items: ReadonlyArray<Job> }).items.some((job) => job.id === id && (job.state === "done" || job.state === "failed")),
      10_000
    ),
    (reply) => (reply.body as { items: ReadonlyArray<Job> }).items.find((job) => job.id === id)!
  )

/** Installs and waits for the job; answers the ended job. */
export const installed = (serverId: string, json: Record<string, unknown>) =>
  Effect.gen(function* () {
    const started = yield* call("POST", `/api/servers/${serverId}/mods/install`, { as: MODDER, json })
    if (started.status !== 202) return yield* Effect.dieMessage(`install answered ${started.status}: ${started.text}`)
    return yield* jobEnd((started.body as Job).id)
  })

/** A server entry on `installDir`, with a Steam account stored (downloads need one). */
export const createServer = (installDir: string) =>
  Effect.gen(function* () {
    yield* call("POST", "/api/platform/credentials/save", { as: ADMIN, json: { username: "garrison_bot", password: "correct-horse" } })
    const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: NodePath.basename(installDir), installDir } })
    return String((created.body as { id: string }).id)
  })
