/**
 * `garrison service install [--dry-run] [--user garrison] [--data-dir ...] [--servers-dir ...]`: a hardened
 * systemd unit for the controller, written to /etc/systemd/system/garrison.service (or printed with
 * `--dry-run`). The controller runs as its own user with a read-only view of the system but for its data and
 * servers folders, no capabilities, no new privileges, the system-service system calls only. Not set:
 * `MemoryDenyWriteExecute` (Node's JIT needs writable, executable memory). `KillMode=process`: stopping or
 * restarting the service ends the controller only; its game servers keep running and are adopted at the next
 * start, as the README promises.
 */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import { CliFailure, describeFailure } from "./CliFailure.js"
import { startScript } from "./PackageRoot.js"

export const UNIT_PATH = "/etc/systemd/system/garrison.service"
export const ENV_FILE = "/etc/garrison/garrison.env"

export interface UnitOptions {
  readonly user: string
  readonly dataDir: string
  readonly serversDir: string
  readonly node: string
  readonly script: string
}

const underHome = (path: string) => /^\/(home|root|run\/user)(\/|$)/.test(path)

export const unitText = (options: UnitOptions): string => {
  const writable = [...new Set([options.dataDir, options.serversDir])]
  // Homes hidden unless Garrison itself lives in one (then read-only; its folders stay writable through ReadWritePaths).
  const protectHome = [options.script, ...writable].some(underHome) ? "read-only" : "yes"
  return `# Garrison, written by \`garrison service install\`. Settings: ${ENV_FILE} (KEY=value lines).
[Unit]
Description=Garrison game server controller
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
User=${options.user}
Group=${options.user}
WorkingDirectory=${options.dataDir}
Environment=NODE_ENV=production
Environment=DATA_DIR=${options.dataDir}
Environment=DEPLOY_DIR=${options.serversDir}
EnvironmentFile=-${ENV_FILE}
ExecStart=${options.node} ${options.script}
Restart=on-failure
RestartSec=5s
# Game servers keep running when the controller stops or restarts; the next start adopts them.
KillMode=process
TimeoutStopSec=30s

# Hardening (no MemoryDenyWriteExecute: Node's JIT needs W+X memory).
UMask=0027
NoNewPrivileges=yes
CapabilityBoundingSet=
AmbientCapabilities=
ProtectSystem=strict
ReadWritePaths=${writable.join(" ")}
ProtectHome=${protectHome}
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
RestrictSUIDSGID=yes
RestrictNamespaces=yes
LockPersonality=yes
RestrictRealtime=yes
RemoveIPC=yes
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_NETLINK
SystemCallFilter=@system-service
SystemCallErrorNumber=EPERM
SystemCallArchitectures=native

[Install]
WantedBy=multi-user.target
`
}

const userExists = (name: string) => {
  try {
    return readFileSync("/etc/passwd", "utf8").split("\n").some((line) => line.split(":")[0] === name)
  } catch {
    return false
  }
}

const ENV_TEMPLATE = `# Garrison's settings for the systemd service (see the README's Configuration table), KEY=value per line.
# PORT=8080
# HOST=127.0.0.1
# DATABASE_URL=postgres://garrison:password@127.0.0.1:5432/garrison
# STEAMCMD_PATH=/usr/games/steamcmd
`

const install = Command.make(
  "install",
  {
    dryRun: Options.boolean("dry-run").pipe(Options.withDescription(`Print the unit instead of writing ${UNIT_PATH}`)),
    user: Options.text("user").pipe(Options.withDescription("The user (and group) the controller runs as"), Options.withDefault("garrison")),
    dataDir: Options.text("data-dir").pipe(Options.withDescription("DATA_DIR for the service"), Options.withDefault("/var/lib/garrison")),
    serversDir: Options.text("servers-dir").pipe(
      Options.withDescription("Where game servers are installed (DEPLOY_DIR; writable for the service); default <data-dir>/servers"),
      Options.optional
    )
  },
  (options) =>
    Effect.gen(function* () {
      if (!/^[a-z_][a-z0-9_-]*\$?$/i.test(options.user)) return yield* new CliFailure({ message: `--user ${options.user} is not a user name` })
      const dataDir = NodePath.resolve(options.dataDir)
      const serversDir = options.serversDir._tag === "Some" ? NodePath.resolve(options.serversDir.value) : NodePath.join(dataDir, "servers")
      const unit = unitText({ user: options.user, dataDir, serversDir, node: process.execPath, script: startScript })
      if (options.dryRun) {
        yield* Console.log(unit.trimEnd())
        // The unit alone on stdout (for a file); how to use it on stderr.
        return yield* Console.error(`# to install: garrison service install (as root) writes ${UNIT_PATH}; then: systemctl daemon-reload && systemctl enable --now garrison`)
      }
      yield* Effect.try({
        try: () => {
          const partial = `${UNIT_PATH}.partial`
          writeFileSync(partial, unit, { mode: 0o644 })
          renameSync(partial, UNIT_PATH)
          if (!existsSync(ENV_FILE)) {
            mkdirSync(NodePath.dirname(ENV_FILE), { recursive: true, mode: 0o755 })
            writeFileSync(ENV_FILE, ENV_TEMPLATE, { mode: 0o600 })
          }
        },
        catch: (cause) => new CliFailure({ message: `cannot write ${UNIT_PATH} (run as root, or use --dry-run): ${describeFailure(cause)}` })
      })
      const steps = [
        ...(userExists(options.user) ? [] : [`useradd --system --user-group --home-dir ${dataDir} --shell /usr/sbin/nologin ${options.user}`]),
        `install -d -m 0750 -o ${options.user} -g ${options.user} ${[...new Set([dataDir, serversDir])].join(" ")}`,
        "systemctl daemon-reload && systemctl enable --now garrison"
      ]
      yield* Console.log(`wrote ${UNIT_PATH} (settings: ${ENV_FILE}); now run, as root:\n${steps.map((step) => `  ${step}`).join("\n")}`)
    })
).pipe(Command.withDescription(`Install Garrison as a hardened systemd service (${UNIT_PATH}); --dry-run prints the unit`))

export const serviceCommand = Command.make("service").pipe(
  Command.withDescription("The systemd service: install"),
  Command.withSubcommands([install])
)
