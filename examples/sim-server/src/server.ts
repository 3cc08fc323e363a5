/**
 * The simulated DayZ server process: reads its config the way DayZ does,
 * binds the game port, serves RCon (BattlEye over UDP, or Source over TCP),
 * loads the `-mod=`/`-serverMod=` folders (mods.ts), runs the simulated
 * players and the companion mod, writes RPT/ADM logs, and ends the way a
 * real server ends: `#shutdown` or SIGTERM (clean, exit 0, termination line
 * in the RPT), a crash (non-zero, no termination line; also a broken mod
 * some time after start-up), or not at all (hang mode).
 */
import { randomBytes } from "node:crypto"
import * as Dgram from "node:dgram"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import type { ActionContext, ServerInfo } from "./actions.js"
import { BattlEyeBans } from "./beBans.js"
import { BattlEyeServer } from "./battleye.js"
import {
  type BattlEyeConfig,
  emptyIdList,
  findBattlEyeConfig,
  idListHas,
  parseIdList,
  parsePriority,
  readBattlEyeConfig,
  readServerConfig,
  type ServerConfig,
  WatchedFile
} from "./configFiles.js"
import { Logs, say } from "./logs.js"
import type { CompanionMod } from "./mod.js"
import { inspectMods, installedKeys, type LoadedMod, loadingLine, unsignedAddons } from "./mods.js"
import { type LaunchParameters, type Parsed, type SimOptions } from "./options.js"
import { Population } from "./population.js"
import { Rng } from "./rng.js"
import { ControlFolder, parseScript, playerVerbs, schedule, type ScriptTarget } from "./script.js"
import { SourceServer } from "./source.js"
import { Storage } from "./storage.js"
import { type Person, World } from "./world.js"

const pad = (n: number) => String(n).padStart(2, "0")
const stamp = (d: Date) =>
  `${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`

const TERMINATION = "--- Termination successfully completed ---"

interface Rcon {
  readonly broadcast: (text: string) => void
  readonly close: () => Promise<void>
  frozen: boolean
}

export class Simulator {
  readonly launch: LaunchParameters
  readonly sim: SimOptions
  readonly root: string
  readonly logs: Logs
  private config!: ServerConfig
  private world!: World
  private population!: Population
  private rng!: Rng
  private rcon: Rcon | undefined
  private mod: CompanionMod | undefined
  /** What the control folder and hang mode asked of the mod, applied when it starts too. */
  private readonly modControl = { frozen: false, paused: false, delayMs: 0 }
  private control: ControlFolder | undefined
  private gameSocket: Dgram.Socket | undefined
  private beBans: BattlEyeBans | undefined
  private activeBeConfig: string | undefined
  /** The mission's persistence (players.db, data/*.bin); undefined when the mission folder is missing. */
  private storage: Storage | undefined
  private readonly timers: Array<NodeJS.Timeout> = []
  private readonly banFile: WatchedFile<ReturnType<typeof parseIdList>>
  private readonly whitelistFile: WatchedFile<ReturnType<typeof parseIdList>>
  private readonly priorityFile: WatchedFile<ReadonlySet<string>>
  private readonly startedAt = Date.now()
  private locked = false
  private running = false
  private stopping = false

  constructor(parsed: Parsed, cwd: string) {
    this.launch = parsed.launch
    this.sim = parsed.sim
    this.root = cwd
    this.logs = new Logs(this.launch.profiles, this.launch.adminLog, new Date())
    this.banFile = new WatchedFile(NodePath.join(cwd, "ban.txt"), parseIdList, emptyIdList)
    this.whitelistFile = new WatchedFile(NodePath.join(cwd, "whitelist.txt"), parseIdList, emptyIdList)
    this.priorityFile = new WatchedFile(NodePath.join(cwd, "priority.txt"), parsePriority, new Set<string>())
  }

  private header(): void {
    const exe = process.env["SIM_EXE"] ?? process.argv[1] ?? "DayZServer"
    const now = new Date()
    const rule = "====================================================================="
    for (const line of [
      rule,
      `== ${exe}`,
      `== "${exe}" ${this.launch.raw.join(" ")}`,
      rule,
      "Exe timestamp: 2024/12/10 11:42:17",
      `Current time:  ${stamp(now)}`,
      "",
      `Version ${this.sim.version}`,
      ""
    ]) {
      this.logs.rptRaw(line)
    }
  }

  /** Fails the start-up like DayZ does: an RPT error line, exit 1. */
  private fatal(message: string): never {
    this.logs.engine(`ErrorMessage: ${message}`)
    this.logs.close()
    process.stderr.write(`DayZServer (simulated): ${message}\n`)
    process.exit(1)
  }

  async start(): Promise<void> {
    this.header()
    this.installSignals()
    try {
      this.config = readServerConfig(this.launch.config)
    } catch (error) {
      this.fatal(`cannot read ${this.launch.config}: ${error instanceof Error ? error.message : String(error)}`)
    }
    const map = this.config.template.includes(".") ? this.config.template.slice(this.config.template.lastIndexOf(".") + 1) : this.config.template
    this.logs.engine(`Mission: ${this.config.template}`)
    this.logs.engine(`World: ${map}`)
    this.logs.engine(`Hostname: ${this.config.hostname}, max players ${this.config.maxPlayers}, instance ${this.config.instanceId}`)
    const brokenMod = this.loadMods()
    this.prepareStorage()

    this.rng = new Rng(this.sim.seed)
    this.world = new World(map, this.rng.fork(3))
    this.world.seedWorld()
    this.population = new Population(this.world, this.populationHooks(), this.sim, this.rng.fork(4))

    await this.bindGamePort()
    if (this.sim.startDelay > 0) await new Promise((resolve) => setTimeout(resolve, this.sim.startDelay))
    await this.startRcon()

    this.running = true
    this.logs.engine("Server is up and running")
    this.population.start()
    const target = this.scriptTarget()
    if (this.sim.script !== undefined) {
      try {
        this.timers.push(...schedule(target, parseScript(Fs.readFileSync(this.sim.script, "utf8"))))
      } catch (error) {
        this.logs.engine(`[sim] cannot read script ${this.sim.script}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    this.control = new ControlFolder(this.sim.control ?? NodePath.join(this.launch.profiles, "sim-control"), this.sim.controlPoll, target)
    this.control.start()
    if (this.sim.crashAfter !== undefined) this.timers.push(setTimeout(() => this.crash(undefined), this.sim.crashAfter * 1000))
    if (brokenMod !== undefined) this.timers.push(setTimeout(() => this.modCrash(brokenMod), this.sim.modCrashDelay))
    if (this.sim.playerListInterval > 0) {
      this.timers.push(setInterval(() => this.population.playerList(), this.sim.playerListInterval * 1000))
    }
    if (this.storage !== undefined && this.sim.persistInterval > 0) {
      this.timers.push(setInterval(() => this.persist(), this.sim.persistInterval))
    }
    if (this.sim.mod) {
      // The folders are there from the start; the mod itself follows (startMod).
      const root = NodePath.join(this.launch.profiles, this.sim.modDir)
      for (const folder of ["commands", "responses"]) Fs.mkdirSync(NodePath.join(root, folder), { recursive: true })
    }
    say(`[sim] ready: ${this.config.hostname} on port ${this.launch.port}, pid ${process.pid}`)
    if (this.sim.mod) await this.startMod()
  }

  /**
   * The companion mod starts once the server is up, as a real one does once
   * the mission has loaded. It is loaded only then: its action table comes
   * from the agent's catalogue (effect's Schema and the platform's HttpApi),
   * which would otherwise delay RCon by half a second on a busy machine.
   */
  private async startMod(): Promise<void> {
    const { CompanionMod } = await import("./mod.js")
    if (this.stopping) return
    const root = NodePath.join(this.launch.profiles, this.sim.modDir)
    const mod = new CompanionMod(
      {
        root,
        pollMs: this.sim.modPoll,
        batch: this.sim.modBatch,
        cmdSuffix: this.sim.cmdSuffix,
        resSuffix: this.sim.resSuffix,
        log: (line) => this.logs.scriptLog(line)
      },
      this.actionContext()
    )
    mod.frozen = this.modControl.frozen
    mod.paused = this.modControl.paused
    mod.delayMs = this.modControl.delayMs
    this.mod = mod
    mod.start()
    this.logs.scriptLog(`[Garrison mod] polling ${NodePath.join(root, "commands")} every ${this.sim.modPoll} ms`)
  }

  /**
   * The `-mod=` and `-serverMod=` folders, in order: a warning for each one
   * missing (the server goes on without it), `Loading mod` for each one
   * found, the `Mods:` / `Server mods:` lines, then (with
   * `verifySignatures = 2`) a warning for each client-mod pbo without a
   * signature by a key in `<install>/keys`. Answers the first mod with a
   * pbo holding the crash marker: the server crashes `-simModCrashDelay`
   * ms after it is up.
   */
  private loadMods(): LoadedMod | undefined {
    const entries = inspectMods(this.root, [
      ...this.launch.mods.map((folder) => ({ folder, serverMod: false })),
      ...this.launch.serverMods.map((folder) => ({ folder, serverMod: true }))
    ])
    for (const entry of entries) {
      this.logs.engine(entry.found ? loadingLine(entry) : `Warning: mod folder '${entry.folder}' not found`)
    }
    if (this.launch.mods.length > 0) this.logs.engine(`Mods: ${this.launch.mods.join(";")}`)
    if (this.launch.serverMods.length > 0) this.logs.engine(`Server mods: ${this.launch.serverMods.join(";")}`)
    const loaded = entries.filter((e): e is LoadedMod => e.found)
    if (this.config.verifySignatures === 2 && loaded.some((m) => !m.serverMod)) {
      const keys = installedKeys(NodePath.join(this.root, "keys"))
      for (const mod of loaded) {
        if (mod.serverMod) continue
        for (const pbo of unsignedAddons(mod, keys)) {
          this.logs.engine(`Warning: addon '${pbo}' of '${mod.folder}' has no valid signature; clients will be kicked`)
        }
      }
    }
    return loaded.find((m) => m.corrupted !== undefined)
  }

  /**
   * Opens the mission's persistence: `players.db` (created when missing; an
   * empty file is an empty database) and the `data/*.bin` files. A file
   * that is not a SQLite database stops the start-up.
   */
  private prepareStorage(): void {
    const mission = NodePath.join(this.root, "mpmissions", this.config.template)
    if (!Fs.existsSync(mission)) {
      this.logs.engine(`Warning: mission folder ${mission} does not exist`)
      return
    }
    const folder = NodePath.join(mission, `storage_${this.config.instanceId}`)
    try {
      this.storage = Storage.open(folder)
    } catch (error) {
      this.fatal(error instanceof Error ? error.message : String(error))
    }
    const fresh = this.storage.created || this.storage.loaded === 0
    this.logs.engine(`[CE][Storage] ${fresh ? "No characters found, starting fresh" : "Characters loaded"} (${folder})`)
  }

  /** The characters of everyone connected, as the server saves them. */
  private connectedCharacters() {
    return this.world.onlineSorted().map((o) => ({ uid: o.person.steam64, alive: o.person.character.alive }))
  }

  /** The periodic save: every connected player's character (one transaction), then the world files. */
  private persist(): void {
    if (this.storage === undefined || this.stopping) return
    this.saveCharacters(this.connectedCharacters())
    this.saveWorld()
  }

  private saveCharacters(characters: ReadonlyArray<{ readonly uid: string; readonly alive: boolean }>): void {
    try {
      this.storage?.savePlayers(characters)
    } catch (error) {
      this.logs.engine(`[CE][Storage] Warning: ${error instanceof Error ? error.message : String(error)}; retrying at the next save`)
    }
  }

  private saveWorld(): void {
    try {
      this.storage?.saveWorld()
    } catch (error) {
      this.logs.engine(`[CE][Storage] Warning: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  private bindGamePort(): Promise<void> {
    return new Promise((resolve) => {
      const socket = Dgram.createSocket("udp4")
      socket.once("error", (error) => this.fatal(`cannot bind the game port ${this.launch.port}: ${error.message}`))
      socket.bind(this.launch.port, "0.0.0.0", () => {
        socket.on("error", () => undefined)
        this.gameSocket = socket
        resolve()
      })
    })
  }

  private battlEyeConfig(): BattlEyeConfig | undefined {
    const dir = this.launch.bePath ?? NodePath.join(this.launch.profiles, "BattlEye")
    const file = findBattlEyeConfig(dir)
    if (file === undefined) return undefined
    const config = readBattlEyeConfig(file)
    if (!/_active_/i.test(NodePath.basename(file))) {
      // BattlEye works from an "active" copy while running; it is removed on a clean exit.
      this.activeBeConfig = NodePath.join(dir, `beserver_x64_active_${randomBytes(4).toString("hex")}.cfg`)
      try {
        Fs.copyFileSync(file, this.activeBeConfig)
      } catch {
        this.activeBeConfig = undefined
      }
    }
    return config
  }

  private async startRcon(): Promise<void> {
    const dir = this.launch.bePath ?? NodePath.join(this.launch.profiles, "BattlEye")
    const be = this.battlEyeConfig()
    this.beBans = new BattlEyeBans(NodePath.join(dir, "bans.txt"))
    this.beBans.load()
    if (be?.password === undefined || be.port === undefined || !Number.isInteger(be.port)) {
      this.logs.engine(`BattlEye Server: RCon disabled (no RConPassword/RConPort in ${dir})`)
      return
    }
    const host = be.ip ?? "0.0.0.0"
    const execute = (text: string, admin: number) => this.execute(text, admin)
    const log = (line: string) => this.logs.engine(line)
    try {
      if (this.sim.rcon === "source") {
        const server = new SourceServer({ host, port: be.port, password: be.password, execute, log })
        await server.start()
        this.rcon = { broadcast: () => undefined, close: () => server.close(), set frozen(v: boolean) { server.frozen = v }, get frozen() { return server.frozen } }
        this.logs.engine(`Source RCON listening on tcp://${host}:${be.port}`)
      } else {
        const server = new BattlEyeServer({
          host,
          port: be.port,
          password: be.password,
          partSize: this.sim.partSize,
          shuffleParts: this.sim.shuffleParts,
          dropAcks: this.sim.dropAcks,
          retryMs: this.sim.messageRetry,
          clientTimeoutMs: this.sim.rconTimeout * 1000,
          execute,
          onLogin: (admin, address, port) => {
            const line = `RCon admin #${admin} (${address}:${port}) logged in`
            this.logs.engine(`BattlEye Server: ${line}`)
            server.broadcast(line)
          },
          log
        })
        await server.start()
        this.rcon = { broadcast: (text) => server.broadcast(text), close: () => server.close(), set frozen(v: boolean) { server.frozen = v }, get frozen() { return server.frozen } }
        this.logs.engine(`BattlEye Server: Initialized (v1.220), RCon on udp://${host}:${be.port}`)
      }
    } catch (error) {
      this.fatal(`cannot open the RCon port ${be.port}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  private populationHooks() {
    return {
      broadcast: (text: string) => this.rcon?.broadcast(text),
      logs: this.logs,
      canJoin: () => this.running && !this.stopping,
      isLocked: () => this.locked,
      maxPlayers: () => this.config.maxPlayers,
      isBanned: (p: Person) => !this.config.disableBanlist && idListHas(this.banFile.current, p.steam64),
      isWhitelisted: (p: Person) => !this.config.enableWhitelist || idListHas(this.whitelistFile.current, p.steam64),
      hasPriority: (p: Person) =>
        (!this.config.disablePrioritylist && this.priorityFile.current.has(p.steam64)) ||
        this.world.priority.some((e) => e.platformId === p.steam64 && (e.expiration === null || e.expiration > Date.now())),
      battlEyeBan: (p: Person) => {
        const ban = this.beBans?.match(p.guid, p.ip)
        return ban === undefined ? undefined : ban.reason || "Banned"
      },
      // A player's character is saved as they leave (at a shutdown, with everyone's in the last save).
      disconnected: (p: Person) => {
        if (!this.stopping) this.saveCharacters([{ uid: p.steam64, alive: p.character.alive }])
      }
    }
  }

  info(): ServerInfo {
    return {
      hostname: this.config.hostname,
      map: this.world.map,
      mission: this.config.template,
      version: this.sim.version,
      maxPlayers: this.config.maxPlayers,
      locked: this.locked,
      uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000),
      port: this.launch.port
    }
  }

  private actionContext(): ActionContext {
    return {
      world: this.world,
      population: this.population,
      rng: this.rng.fork(5),
      info: () => this.info(),
      reloadConfig: () => {
        try {
          this.config = readServerConfig(this.launch.config)
        } catch (error) {
          return { reloaded: false, error: error instanceof Error ? error.message : String(error) }
        }
        return {
          reloaded: true,
          hostname: this.config.hostname,
          maxPlayers: this.config.maxPlayers,
          bans: this.banFile.current.steam64.size + this.banFile.current.dayzIds.size,
          priority: this.priorityFile.current.size
        }
      }
    }
  }

  private setLocked(locked: boolean): void {
    if (this.locked === locked) return
    this.locked = locked
    this.logs.engine(locked ? "Server locked" : "Server unlocked")
  }

  private slot(arg: string | undefined) {
    if (arg === undefined || !/^\d+$/.test(arg)) return undefined
    return this.world.online.get(Number(arg))
  }

  private playersCache: { version: number; text: string } | undefined

  /** The players reply, in BattlEye's columns (re-rendered only when someone joined, left or was verified). */
  renderPlayers(): string {
    if (this.playersCache?.version === this.world.version) return this.playersCache.text
    const online = this.world.onlineSorted()
    const lines = ["Players on server:", "[#] [IP Address]:[Port] [Ping] [GUID] [Name]", "--------------------------------------------------"]
    for (const o of online) {
      const p = o.person
      lines.push(
        `${String(o.slot).padEnd(4)}${`${p.ip}:${p.port}`.padEnd(22)}${String(o.ping).padEnd(5)}${p.guid}(${o.verified ? "OK" : "?"}) ${p.name}${o.inLobby ? " (Lobby)" : ""}`
      )
    }
    lines.push(`(${online.length} players in total)`)
    const text = lines.join("\n")
    this.playersCache = { version: this.world.version, text }
    return text
  }

  /** One RCon command; returns the reply text (empty for commands that print nothing). */
  execute(text: string, admin: number): string {
    const trimmed = text.trim()
    const [word = "", ...rest] = trimmed.split(/\s+/)
    switch (word.toLowerCase()) {
      case "players":
        return this.renderPlayers()
      case "kick": {
        const online = this.slot(rest[0])
        if (online !== undefined) this.population.kick(online, rest.slice(1).join(" "))
        return ""
      }
      case "say": {
        const match = /^say\s+(-?\d+)\s+([\s\S]*)$/i.exec(trimmed)
        if (match === null) return ""
        const message = match[2]!
        if (match[1] === "-1") {
          this.logs.engine(`RCon admin #${admin}: (Global) ${message}`)
          this.rcon?.broadcast(`RCon admin #${admin}: (Global) ${message}`)
          this.world.record("message.global", { admin, text: message })
        } else {
          const online = this.slot(match[1])
          if (online === undefined) return ""
          this.logs.engine(`RCon admin #${admin}: (Private) ${online.person.name}: ${message}`)
          this.rcon?.broadcast(`RCon admin #${admin}: (Private) ${online.person.name}: ${message}`)
          this.world.record("message.private", { admin, platformId: online.person.steam64, text: message })
        }
        return ""
      }
      case "#lock":
        this.setLocked(true)
        return ""
      case "#unlock":
        this.setLocked(false)
        return ""
      case "#shutdown":
        setImmediate(() => void this.shutdown(`#shutdown by RCon admin #${admin}`))
        return ""
      case "bans":
      case "loadbans":
      case "writebans":
        return this.beBans?.command(word) ?? ""
      case "ban": {
        const online = this.slot(rest[0])
        if (online === undefined) return ""
        const minutes = rest[1] !== undefined && /^\d+$/.test(rest[1]) ? Number(rest[1]) : 0
        const reason = rest.slice(rest[1] !== undefined && /^\d+$/.test(rest[1]) ? 2 : 1).join(" ")
        this.beBans?.add(online.person.guid, minutes, reason)
        this.beBans?.write()
        this.population.kick(online, reason, "Admin Ban")
        return ""
      }
      case "addban": {
        const id = rest[0]
        if (id === undefined) return ""
        const minutes = rest[1] !== undefined && /^\d+$/.test(rest[1]) ? Number(rest[1]) : 0
        const reason = rest.slice(rest[1] !== undefined && /^\d+$/.test(rest[1]) ? 2 : 1).join(" ")
        const ban = this.beBans?.add(id, minutes, reason)
        if (ban === undefined) return "Invalid GUID or IP address"
        this.beBans?.write()
        const online = this.world.onlineSorted().find((o) => o.person.guid === ban.id || o.person.ip === ban.id)
        if (online !== undefined) this.population.kick(online, reason, "Admin Ban")
        return ""
      }
      case "removeban":
        if (rest[0] === undefined || !/^\d+$/.test(rest[0]) || this.beBans?.remove(Number(rest[0])) !== true) return "Invalid ban number"
        this.beBans?.write()
        return ""
      default:
        return "Unknown command"
    }
  }

  private scriptTarget(): ScriptTarget {
    const log = (line: string) => this.logs.engine(line)
    return {
      ...playerVerbs(this.world, this.population, log),
      lock: (locked) => this.setLocked(locked),
      shutdown: () => void this.shutdown("scripted shutdown"),
      crash: (code) => this.crash(code),
      mod: (command, ms) => {
        if (!this.sim.mod) return log("[sim] mod: the companion mod is off (-simMod=0)")
        if (command === "pause") this.modControl.paused = true
        else if (command === "resume") this.modControl.paused = false
        else this.modControl.delayMs = ms
        if (this.mod !== undefined) {
          this.mod.paused = this.modControl.paused
          this.mod.delayMs = this.modControl.delayMs
        }
        this.logs.scriptLog(`[Garrison mod] ${command === "delay" ? `answers ${ms} ms after taking a command` : command === "pause" ? "paused" : "resumed"}`)
      },
      log
    }
  }

  private installSignals(): void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.sim.hang !== "off") {
        this.logs.engine(`Received ${signal}; ignored (hang mode)`)
        return
      }
      void this.shutdown(`received ${signal}`)
    }
    process.on("SIGTERM", onSignal)
    process.on("SIGINT", onSignal)
    process.on("SIGHUP", () => undefined)
    process.on("uncaughtException", (error) => {
      this.logs.engine(`ErrorMessage: ${error.stack ?? error.message}`)
      this.logs.crashLog(`Unhandled exception: ${error.stack ?? error.message}`)
      this.logs.close()
      process.exit(1)
    })
    if (this.sim.hang === "freeze") {
      // Freeze once running: stop answering anything, like a deadlocked server.
      setTimeout(() => {
        if (this.rcon !== undefined) this.rcon.frozen = true
        this.modControl.frozen = true
        if (this.mod !== undefined) this.mod.frozen = true
        this.logs.engine("[sim] hang mode: frozen")
      }, 0)
    }
  }

  /** A clean stop: players leave, storage is saved, the RPT gets its termination line, exit 0. */
  async shutdown(reason: string): Promise<void> {
    if (this.sim.hang !== "off") {
      this.logs.engine(`Shutdown requested (${reason}); ignored (hang mode)`)
      return
    }
    if (this.stopping) return
    this.stopping = true
    this.logs.engine(`Shutting down: ${reason}`)
    this.population.stop()
    const leaving = this.connectedCharacters()
    this.population.disconnectAll()
    this.control?.stop()
    this.mod?.stop()
    for (const timer of this.timers) clearTimeout(timer)
    if (this.sim.shutdownDelay > 0) await new Promise((resolve) => setTimeout(resolve, this.sim.shutdownDelay))
    await this.rcon?.close()
    this.gameSocket?.close()
    if (this.activeBeConfig !== undefined) Fs.rmSync(this.activeBeConfig, { force: true })
    if (this.storage !== undefined) {
      // The last save: everyone who was connected, the world, then the database is closed.
      this.saveCharacters(leaving)
      this.saveWorld()
      this.storage.close()
    }
    this.logs.engine("[CE][Storage] World saved")
    this.logs.rptRaw(TERMINATION)
    this.logs.close()
    say(`[sim] stopped cleanly (${reason})`)
    process.exit(0)
  }

  /** A broken mod takes the server down: the RPT names the mod and its pbo, no termination line, exit 1. */
  private modCrash(mod: LoadedMod): void {
    if (this.stopping) return
    this.logs.engine(`ERROR: mod '${mod.folder}' failed to load: corrupted addon ${mod.corrupted ?? "?"}`)
    this.logs.engine("Application crashed! Exiting...")
    this.logs.crashLog(`Exception code: C0000005 ACCESS_VIOLATION (mod '${mod.folder}', corrupted addon ${mod.corrupted ?? "?"})`)
    this.logs.close()
    process.exit(1)
  }

  /** Dies at once: no cleanup, no termination line, non-zero exit. */
  crash(code: number | undefined): never {
    const exitCode = code ?? this.sim.crashCode
    this.logs.engine(`ErrorMessage: Simulated crash (exit code ${exitCode})`)
    this.logs.crashLog(`Exception code: C0000005 ACCESS_VIOLATION (simulated crash, exit code ${exitCode})`)
    this.logs.close()
    process.exit(exitCode)
  }
}
