/**
 * An in-process controller with the servers (fake launcher), platform and
 * updates plugins, and a small `steamcmd.sh` that "installs" the server app
 * in SteamCMD's words: progress lines, the app manifest, an executable and
 * a BattlEye config. `<fake>/mode` picks what it does (`ok`, `slow`: about
 * 30 s of progress, `disk-full`). The full stand-in needs a build: the
 * end-to-end tests use it.
 */
import { auditRecorder, callWithText, eventually, fakeFleet, tempDir, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { PlatformPlugin } from "../../src/platform/index.js"
import { UpdatesPlugin } from "../../src/updates/index.js"

export const ADMIN = "root:admin"
export const DEPLOYER = "dep:server.deploy,server.start,server.stop,server.view"

export interface FakeSteam {
  readonly path: string
  readonly dir: string
  readonly mode: (mode: "ok" | "slow" | "disk-full") => void
  /** The pid of the last run, once it wrote it. */
  readonly lastPid: () => number | undefined
}

export const fakeSteam = (): FakeSteam => {
  const dir = tempDir("garrison-updates-steam-")
  const path = NodePath.join(dir, "steamcmd.sh")
  Fs.writeFileSync(NodePath.join(dir, "mode"), "ok")
  Fs.writeFileSync(
    path,
    `#!/bin/sh
echo $$ > '${dir}/pid'
mode=$(cat '${dir}/mode')
root=""; app=""
while [ $# -gt 0 ]; do
  case "$1" in
    +force_install_dir) root="$2"; shift 2 ;;
    +login)
      if [ "$2" = garrison_bot ] && [ "$3" = correct-horse ]; then echo "Logging in user '$2' [U:1:0] to Steam Public...OK"
      elif [ "$2" = guarded ] && [ "$4" = F4K3C ]; then echo "Logging in user '$2' [U:1:0] to Steam Public...OK"
      elif [ "$2" = guarded ]; then echo "Steam Guard code:"; echo "FAILED (Account Logon Denied)"; exit 63
      else echo "FAILED (Invalid Password)"; echo "Login Failure: Invalid Password"; exit 5; fi
      shift 3 ;;
    +app_update) app="$2"; shift 2 ;;
    *) shift ;;
  esac
done
[ -z "$app" ] && exit 0
if [ "$mode" = disk-full ]; then
  echo " Update state (0x61) downloading, progress: 10.00 (100 / 1000)"
  echo "Error! App '$app' state is 0x202 after update job."; exit 8
fi
steps="25 50 75"; [ "$mode" = slow ] && steps=$(seq 1 300)
for p in $steps; do
  echo " Update state (0x61) downloading, progress: $p.00 ($((p * 10)) / 1000)"
  [ "$mode" = slow ] && sleep 0.1
done
mkdir -p "$root/steamapps" "$root/battleye"
printf '#!/bin/sh\\nsleep 1000\\n' > "$root/DayZServer"; chmod 755 "$root/DayZServer"
printf 'RConPassword simPass\\nRConPort 2306\\n' > "$root/battleye/beserver_x64.cfg"
printf '"AppState"\\n{\\n\\t"appid"\\t\\t"%s"\\n\\t"buildid"\\t\\t"1234"\\n}\\n' "$app" > "$root/steamapps/appmanifest_$app.acf"
echo " Update state (0x81) verifying update, progress: 100.00 (1000 / 1000)"
echo "Success! App '$app' fully installed."
`,
    { mode: 0o755 }
  )
  return {
    path,
    dir,
    mode: (mode) => Fs.writeFileSync(NodePath.join(dir, "mode"), mode),
    lastPid: () => {
      try {
        return Number(Fs.readFileSync(NodePath.join(dir, "pid"), "utf8"))
      } catch {
        return undefined
      }
    }
  }
}

export const updatesController = (steam: FakeSteam) => {
  const fleet = fakeFleet()
  const deployDir = tempDir("garrison-updates-deploy-")
  const audit = auditRecorder()
  return {
    audit,
    fleet,
    deployDir,
    layer: testController([audit.plugin, fleet.plugin, PlatformPlugin, UpdatesPlugin], {
      dataPrefix: "garrison-updates-",
      logLevel: LogLevel.Error,
      config: { STEAMCMD_PATH: steam.path, STEAM_WEB_API_URL: "http://127.0.0.1:9", DEPLOY_DIR: deployDir }
    })
  }
}

/** One request as a named caller: status, JSON body and its text (`as` is `"<user>:<perm,perm>"`). */
export const call = callWithText

export interface Status {
  readonly state: string
  readonly kind: string | null
  readonly phase: string
  readonly percent: number
  readonly error: string | null
  readonly buildId: string | null
  readonly appId: string | null
  readonly lastLine: string
}

export const status = (id: string) => Effect.map(call("GET", `/api/servers/${id}/update/status`, { as: DEPLOYER }), (r) => r.body as Status)

/** Waits (real time) until the update has ended. */
export const ended = (id: string, timeoutMs = 10_000) => eventually(status(id), (s) => s.state !== "running", timeoutMs)
