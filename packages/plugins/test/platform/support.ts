/**
 * An in-process controller with the platform plugin, and small scripts
 * standing in for SteamCMD's login (the full stand-in,
 * `examples/sim-steamcmd`, needs a build: the end-to-end tests use it).
 */
import { callWithText, tempDir, testController } from "@garrison/testkit"
import { LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { PlatformPlugin, type PlatformSettings, type Workshop } from "../../src/platform/index.js"

export const ADMIN = "root:admin"
export const VIEWER = "vic:server.view"

/**
 * A `steamcmd.sh` that logs `garrison_bot` in with `correct-horse`, asks
 * `guarded` (password `pw-guarded`) for a Steam Guard code unless given
 * `F4K3C`, and refuses everything else, in SteamCMD's words and exit codes.
 * Each run's arguments are appended to `args.log` beside it.
 */
export const fakeSteamCmd = (): { readonly path: string; readonly argsLog: string } => {
  const dir = tempDir("garrison-platform-steamcmd-")
  const path = NodePath.join(dir, "steamcmd.sh")
  const argsLog = NodePath.join(dir, "args.log")
  Fs.writeFileSync(
    path,
    `#!/bin/sh
echo "$@" >> '${argsLog}'
echo "Steam Console Client (c) Valve Corporation - version 1718904809"
echo "Loading Steam API...OK"
while [ "$1" != "+login" ] && [ $# -gt 0 ]; do shift; done
user="$2"; pass="$3"; code="$4"
echo "Logging in user '$user' [U:1:0] to Steam Public..."
if [ "$user" = garrison_bot ] && [ "$pass" = correct-horse ]; then echo "Waiting for user info...OK"; exit 0; fi
if [ "$user" = guarded ] && [ "$pass" = pw-guarded ]; then
  if [ "$code" = F4K3C ]; then echo "Waiting for user info...OK"; exit 0; fi
  if [ -z "$code" ] || [ "$code" = "+quit" ]; then echo "Steam Guard code:"; echo "FAILED (Account Logon Denied)"; exit 63; fi
  echo "FAILED (Invalid Login Auth Code)"; echo "Login Failure: Invalid Login Auth Code"; exit 5
fi
echo "FAILED (Invalid Password)"
echo "Login Failure: Invalid Password"
exit 5
`,
    { mode: 0o755 }
  )
  return { path, argsLog }
}

export const platformController = (config: Readonly<Record<string, string>> = {}, dataDir?: string) =>
  testController<PlatformSettings | Workshop>([PlatformPlugin], {
    dataPrefix: "garrison-platform-",
    logLevel: LogLevel.Error,
    config,
    ...(dataDir === undefined ? {} : { settings: { dataDir } })
  })

/** One request as a named caller: status, JSON body and its text (`as` is `"<user>:<perm,perm>"`). */
export const call = callWithText
