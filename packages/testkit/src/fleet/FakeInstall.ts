/** Game server installs on disk that the fake launcher "runs": just enough for the servers plugin to detect. */
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { tempDir } from "../TempDir.js"

let nextRconPort = 40_000

export interface FakeInstallOptions {
  /** Also write an active BattlEye config (`beserver_x64_active_*.cfg`, password `activepw`, port 2406). */
  readonly activeConfig?: boolean
  /** The RCon port the BattlEye config names: a fresh one by default; `null` leaves it out (RCon is then game port + 4). */
  readonly rconPort?: number | null
}

/**
 * A throw-away install folder (removed after the test file): `DayZServer`,
 * `serverDZ.cfg` (hostname "Detected Server", 60 players), a BattlEye
 * config (password `filepw`) and two mod folders, `@CF` and `@Trader`.
 * Each install's BattlEye config names an RCon port of its own, as two
 * real servers on one host need.
 */
export const fakeInstall = (options: FakeInstallOptions = {}): string => {
  const dir = tempDir("garrison-install-")
  Fs.writeFileSync(NodePath.join(dir, "DayZServer"), "#!/bin/sh\n", { mode: 0o755 })
  Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), `hostname = "Detected Server";  // name\nmaxPlayers = 60;\n`)
  Fs.mkdirSync(NodePath.join(dir, "battleye"))
  Fs.writeFileSync(
    NodePath.join(dir, "battleye", "beserver_x64.cfg"),
    options.rconPort === null
      ? "RConPassword filepw\nRConIP 0.0.0.0\n"
      : `RConPassword filepw\nRConPort ${options.rconPort ?? nextRconPort++}\nRConIP 0.0.0.0\n`
  )
  if (options.activeConfig === true) {
    Fs.writeFileSync(NodePath.join(dir, "battleye", "beserver_x64_active_1a2b.cfg"), "RConPassword activepw\nRConPort 2406\n")
  }
  Fs.mkdirSync(NodePath.join(dir, "@CF"))
  Fs.mkdirSync(NodePath.join(dir, "@Trader"))
  return dir
}
