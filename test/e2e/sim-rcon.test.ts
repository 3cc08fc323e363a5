/**
 * Garrison's BattlEye client against the simulated DayZ server, as separate
 * processes over real loopback UDP: login, multi-part replies, kicks,
 * messages, lock, ban.txt, repeated server messages, 1,000 commands in
 * flight, reconnecting after a restart, and a clean `#shutdown`.
 *
 * Needs the build (`npx tsc -b`).
 */
import { describe, expect, it } from "@effect/vitest"
import {
  BattlEyeClient,
  BattlEyePacket,
  parseBans,
  parsePlayers,
  parsePlayerTotal,
  parseServerMessage,
  PlayerIds,
  type RconClient
} from "@garrison/runtime"
import * as Dgram from "node:dgram"
import { writeFileSync } from "node:fs"
import * as NodePath from "node:path"
import { afterAll } from "vitest"
import { Effect, Schedule, Stream } from "effect"
import { HOST } from "../support/controller.js"
import {
  installSim,
  killAllSims,
  launchSim,
  readAdm,
  readRpt,
  type SimInstall,
  type SimSettings,
  simControl,
  stopSim,
  waitFor,
  waitForSimExit
} from "../support/sim.js"

const installs: Array<SimInstall> = []
afterAll(() => {
  killAllSims()
  for (const install of installs) install.remove()
})

/** A fresh install and a running simulator, stopped when the test's scope closes. */
const simulator = (settings: SimSettings = {}, maxPlayers?: number) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const install = await installSim(maxPlayers === undefined ? {} : { maxPlayers })
      installs.push(install)
      return await launchSim(install, { settings })
    }),
    (sim) => Effect.promise(() => stopSim(sim))
  )

const connect = (install: SimInstall, options: Partial<BattlEyeClient.BattlEyeOptions> = {}) =>
  BattlEyeClient.connect({ host: HOST, port: install.rconPort, password: install.rconPassword, ...options })

const until = (what: string, check: () => boolean, timeoutMs = 5_000) =>
  Effect.promise(() => waitFor(check, timeoutMs, () => what))

const players = (client: RconClient) => client.command("players").pipe(Effect.map(parsePlayers))

describe("simulated DayZ server over BattlEye RCon", () => {
  it.scopedLive("refuses a wrong password and accepts the right one", () =>
    Effect.gen(function* () {
      const sim = yield* simulator()
      const refused = yield* Effect.flip(connect(sim.install, { password: "wrong" }))
      expect(refused._tag).toBe("RconLoginRefused")
      const client = yield* connect(sim.install)
      expect(yield* players(client)).toEqual([])
    })
  )

  it.scopedLive("reassembles a 100-player `players` reply sent in several parts", () =>
    Effect.gen(function* () {
      const sim = yield* simulator({ players: 100, joinInterval: 0 }, 100)
      const client = yield* connect(sim.install)
      yield* until("100 verified players", () => readAdm(sim.install).split("is connected").length - 1 === 100)
      const reply = yield* client.command("players")
      const list = parsePlayers(reply)
      expect(list).toHaveLength(100)
      expect(parsePlayerTotal(reply)).toBe(100)
      expect(new Set(list.map((p) => p.slot)).size).toBe(100)
      // The same reply on the wire: several parts (count the datagrams with a raw socket).
      const parts = yield* Effect.promise(() => rawPartCount(sim.install, "players"))
      expect(parts).toBeGreaterThan(3)
      expect(Buffer.byteLength(reply)).toBeGreaterThan(1024 * 3)
    })
  )

  it.scopedLive("pushes join, GUID and chat messages; kicks; `say`; players with their real ids", () =>
    Effect.gen(function* () {
      const sim = yield* simulator()
      const client = yield* connect(sim.install)
      // Subscribed once `subscribe` returned: messages from then on wait for the reader.
      const stream = yield* client.subscribe
      const seen: Array<string> = []
      yield* Effect.forkScoped(Stream.runForEach(stream, (m) => Effect.sync(() => seen.push(m))))
      const steam64 = "76561198012345678" as PlayerIds.Steam64
      simControl(sim.install, `join ${steam64} Bravo17`, "chat Bravo17 Global hello there")
      yield* until("verified + chat", () => seen.some((m) => m.startsWith("(Global) Bravo17")) && seen.some((m) => m.startsWith("Verified GUID")))
      const events = seen.map(parseServerMessage)
      const guid = PlayerIds.toBattlEyeGuid(steam64)
      expect(events.map((e) => e._tag)).toEqual(
        expect.arrayContaining(["RconAdminLoggedIn", "RconPlayerConnected", "RconPlayerGuid", "RconPlayerGuidVerified", "RconChat"])
      )
      expect(events.find((e) => e._tag === "RconPlayerGuidVerified")).toMatchObject({ slot: 0, name: "Bravo17", guid })
      // The simulator derives GUID and DayZ ID independently: they match Garrison's conversions.
      const [player] = yield* players(client)
      expect(player).toMatchObject({ slot: 0, name: "Bravo17", guid, verified: true, inLobby: false })
      expect(readAdm(sim.install)).toContain(`Player "Bravo17" is connected (id=${PlayerIds.toDayzId(steam64)})`)
      expect(readAdm(sim.install)).toContain(`[Chat - Global]("Bravo17"(id=${PlayerIds.toDayzId(steam64)})): hello there`)

      expect(yield* client.command("say -1 Restart in 5 minutes")).toBe("")
      yield* until("say echoed", () => seen.includes("RCon admin #0: (Global) Restart in 5 minutes"))
      expect(readRpt(sim.install)).toContain("RCon admin #0: (Global) Restart in 5 minutes")
      expect(yield* client.command("say 0 just for you")).toBe("")

      expect(yield* client.command("kick 0 AFK")).toBe("")
      yield* until("kicked", () => seen.some((m) => m.includes("has been kicked by BattlEye")))
      expect(seen.map(parseServerMessage).find((e) => e._tag === "RconPlayerKicked")).toMatchObject({
        slot: 0,
        name: "Bravo17",
        guid,
        reason: "Admin Kick (AFK)"
      })
      expect(yield* players(client)).toEqual([])
      yield* until("disconnected line", () => readAdm(sim.install).includes(`Player "Bravo17"(id=${PlayerIds.toDayzId(steam64)}) has been disconnected`))
    })
  )

  it.scopedLive("a locked server refuses joins until unlocked", () =>
    Effect.gen(function* () {
      const sim = yield* simulator()
      const client = yield* connect(sim.install)
      expect(yield* client.command("#lock")).toBe("")
      simControl(sim.install, "join 76561198000000001 Locked Out")
      yield* until("refusal logged", () => readRpt(sim.install).includes(`"Locked Out"(steamID=76561198000000001) kicked from server: Server is locked`))
      expect(yield* players(client)).toEqual([])
      expect(yield* client.command("#unlock")).toBe("")
      simControl(sim.install, "join 76561198000000001 Locked Out")
      yield* until("joined after unlock", () => readAdm(sim.install).includes(`Player "Locked Out" is connected`))
      expect((yield* players(client)).map((p) => p.name)).toEqual(["Locked Out"])
    })
  )

  it.scopedLive("refuses players listed in ban.txt by Steam64 or DayZ ID, ignoring comments", () =>
    Effect.gen(function* () {
      const sim = yield* simulator()
      const byDayzId = "76561198000000003" as PlayerIds.Steam64
      writeFileSync(
        NodePath.join(sim.install.dir, "ban.txt"),
        `// owner's own list\n76561198000000002 // cheater\n${PlayerIds.toDayzId(byDayzId)}\n// 76561198000000004 commented out\n`
      )
      const client = yield* connect(sim.install)
      simControl(sim.install, "join 76561198000000002 BannedBySteam", `join ${byDayzId} BannedByDayzId`, "join 76561198000000004 Welcome")
      yield* until("both refusals", () => (readRpt(sim.install).match(/You are banned \(ban\.txt\)/g) ?? []).length === 2)
      yield* until("allowed player joined", () => readAdm(sim.install).includes(`Player "Welcome" is connected`))
      expect((yield* players(client)).map((p) => p.name)).toEqual(["Welcome"])
    })
  )

  it.scopedLive("BattlEye bans: addBan, bans, removeBan, writeBans", () =>
    Effect.gen(function* () {
      const sim = yield* simulator()
      const client = yield* connect(sim.install)
      const guid = PlayerIds.toBattlEyeGuid("76561198012345678" as PlayerIds.Steam64)
      expect(yield* client.command(`addBan ${guid} 0 Cheating`)).toBe("")
      expect(yield* client.command("addBan 1.2.3.4 60 VPN")).toBe("")
      const bans = parseBans(yield* client.command("bans"))
      expect(bans.guidBans.map((b) => [b.index, b.id, b.minutesLeft, b.reason])).toEqual([[0, guid, "perm", "Cheating"]])
      expect(bans.ipBans.map((b) => [b.index, b.id, b.minutesLeft, b.reason])).toEqual([[1, "1.2.3.4", 60, "VPN"]])
      expect(yield* client.command("removeBan 0")).toBe("")
      expect(parseBans(yield* client.command("bans")).guidBans).toEqual([])
      expect(yield* client.command("writeBans")).toBe("")
      expect(yield* client.command("loadBans")).toBe("")
      expect(parseBans(yield* client.command("bans")).ipBans.map((b) => b.id)).toEqual(["1.2.3.4"])
    })
  )

  it.scopedLive("acknowledges server messages; a message the server repeats is delivered once", () =>
    Effect.gen(function* () {
      // The simulator ignores the first two acks of every message, so each goes out three times.
      const sim = yield* simulator({ dropAcks: 2, messageRetry: 50 })
      const raw = yield* Effect.acquireRelease(Effect.promise(() => rawClient(sim.install)), (r) => Effect.sync(() => r.close()))
      const client = yield* connect(sim.install)
      // Subscribed once `subscribe` returned: messages from then on wait for the reader.
      const stream = yield* client.subscribe
      const seen: Array<string> = []
      yield* Effect.forkScoped(Stream.runForEach(stream, (m) => Effect.sync(() => seen.push(m))))
      simControl(sim.install, "join 76561198000000005 Echo", "chat Echo Direct one", "chat Echo Direct two")
      yield* until("raw client saw three copies", () => raw.messages.filter((m) => m === "(Direct) Echo: two").length >= 3)
      // A marker sent after the last copies went out to every client (the simulator's retries to both
      // clients fire together), delivered after them: once it arrives, any repeat would have too.
      simControl(sim.install, "chat Echo Direct three")
      yield* until("the marker", () => seen.includes("(Direct) Echo: three"))
      const chats = seen.filter((m) => m.startsWith("(Direct) Echo"))
      expect(chats).toEqual(["(Direct) Echo: one", "(Direct) Echo: two", "(Direct) Echo: three"])
      expect(seen.filter((m) => m.startsWith("Player #0 Echo (")).length).toBe(1)
      // The raw client saw the repeats, proving the server really sent them: three at least (the first two
      // acks are ignored; on a busy machine the third ack may reach the server after one more retry).
      expect(raw.messages.filter((m) => m === "(Direct) Echo: one").length).toBeGreaterThanOrEqual(3)
    })
  )

  it.scopedLive("retries an unacknowledged message 5 times, then drops that client; acks alone do not keep a client; keep-alives keep ours", () =>
    Effect.gen(function* () {
      // The silent client sends keep-alives and acknowledges every message but Quiet's join, so only that
      // missing acknowledgement can end it (not the others' login messages, not the timeout); the acker sends no
      // command, so the timeout ends it. 6 s leaves the acker time to receive the join on a busy machine.
      const sim = yield* simulator({ messageRetry: 50, rconTimeout: 6 })
      const isQuietsJoin = (text: string) => text.startsWith("Player #0 Quiet (")
      const silent = yield* Effect.acquireRelease(
        Effect.promise(() => rawClient(sim.install, (text) => !isQuietsJoin(text), 300)),
        (r) => Effect.sync(() => r.close())
      )
      const acker = yield* Effect.acquireRelease(Effect.promise(() => rawClient(sim.install, true)), (r) => Effect.sync(() => r.close()))
      const client = yield* connect(sim.install, { keepAliveInterval: "300 millis" })
      simControl(sim.install, "join 76561198000000006 Quiet")
      yield* until("six copies", () => silent.messages.filter((m) => m.startsWith("Player #0 Quiet (")).length >= 6)
      // Still unacknowledged after the 5 resends: the server drops the client, as a real one does.
      yield* until("silent client dropped", () => readRpt(sim.install).includes("not acknowledged after 5 resends"))
      expect(silent.messages.filter((m) => m.startsWith("Player #0 Quiet ("))).toHaveLength(6)
      expect(yield* Effect.promise(() => silent.command("players", 500))).toBeUndefined()
      // The other raw client acks every message but sends no command: acks are not keep-alives...
      expect(acker.messages.some((m) => m.startsWith("Player #0 Quiet ("))).toBe(true)
      yield* until("acking client timed out", () => readRpt(sim.install).includes("timed out"), 20_000)
      expect(yield* Effect.promise(() => acker.command("players", 500))).toBeUndefined()
      // ...while Garrison's client, sending keep-alives, is still served.
      expect(yield* client.command("players")).toContain("Quiet")
    })
  )

  it.scopedLive("a full server refuses joins except for players in priority.txt", () =>
    Effect.gen(function* () {
      const sim = yield* simulator({}, 1)
      writeFileSync(NodePath.join(sim.install.dir, "priority.txt"), "76561198000000009;76561198000000010;")
      const client = yield* connect(sim.install)
      simControl(sim.install, "join 76561198000000007 First")
      yield* until("first joined", () => readAdm(sim.install).includes(`Player "First" is connected`))
      simControl(sim.install, "join 76561198000000008 NoPriority", "join 76561198000000009 Vip")
      yield* until("full refusal", () => readRpt(sim.install).includes(`"NoPriority"(steamID=76561198000000008) kicked from server: Server is full`))
      yield* until("vip joined", () => readAdm(sim.install).includes(`Player "Vip" is connected`))
      expect((yield* players(client)).map((p) => p.name)).toEqual(["First", "Vip"])
    })
  )

  it.scopedLive("1,000 commands in flight: every reply belongs to its command", () =>
    Effect.gen(function* () {
      const sim = yield* simulator({ players: 3, joinInterval: 0 })
      const client = yield* connect(sim.install, { commandTimeout: "20 seconds" })
      yield* client.command("addBan 9.9.9.9 0 test")
      const kinds = ["players", "bans", "nonsense"] as const
      const replies = yield* Effect.forEach(
        Array.from({ length: 1000 }, (_, i) => kinds[i % 3]!),
        (kind) => client.command(kind).pipe(Effect.map((reply) => ({ kind, reply }))),
        { concurrency: "unbounded" }
      )
      expect(replies).toHaveLength(1000)
      for (const { kind, reply } of replies) {
        if (kind === "players") expect(reply.startsWith("Players on server:")).toBe(true)
        else if (kind === "bans") expect(reply).toContain("9.9.9.9")
        else expect(reply).toBe("Unknown command")
      }
    })
  )

  it.scopedLive("reconnects after the simulator is restarted", () =>
    Effect.gen(function* () {
      const install = yield* Effect.promise(() => installSim())
      installs.push(install)
      const first = yield* Effect.promise(() => launchSim(install))
      const client = yield* connect(install, {
        keepAliveInterval: "200 millis",
        silenceTimeout: "1 second",
        loginTimeout: "500 millis",
        reconnect: Schedule.spaced("200 millis")
      })
      expect(yield* client.command("players")).toContain("(0 players in total)")
      const ended = yield* Effect.promise(() => stopSim(first))
      expect(ended.code).toBe(0)
      const second = yield* Effect.acquireRelease(
        Effect.promise(() => launchSim(install, { settings: { players: 1, joinInterval: 0 } })),
        (sim) => Effect.promise(() => stopSim(sim))
      )
      yield* client.stateChanges.pipe(
        Stream.filter((s) => s.status === "connected" && s.reconnects >= 1),
        Stream.runHead,
        Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => new Error(`no reconnect; sim output:\n${second.output()}`) })
      )
      const reply = yield* client.command("players")
      expect(parsePlayers(reply).map((p) => p.name)).toEqual(["Bravo17"])
      expect((yield* client.state).reconnects).toBeGreaterThanOrEqual(1)
    })
  )

  it.scopedLive("`#shutdown` disconnects everyone, writes the RPT termination line and exits 0", () =>
    Effect.gen(function* () {
      const sim = yield* simulator({ players: 2, joinInterval: 0 })
      const client = yield* connect(sim.install)
      yield* until("players joined", () => readAdm(sim.install).split("is connected").length - 1 === 2)
      expect(yield* client.command("#shutdown")).toBe("")
      const ended = yield* Effect.promise(() => waitForSimExit(sim, 10_000))
      expect(ended).toEqual({ code: 0, signal: null })
      const rpt = readRpt(sim.install).trimEnd().split("\n")
      expect(rpt.at(-1)).toBe("--- Termination successfully completed ---")
      expect(readAdm(sim.install).split("has been disconnected").length - 1).toBe(2)
    })
  )
})

/** Sends one command over a raw socket and counts the reply's datagrams. */
const rawPartCount = (install: SimInstall, command: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const socket = Dgram.createSocket("udp4")
    let parts = 0
    let expected = -1
    const timer = setTimeout(() => {
      socket.close()
      reject(new Error(`raw ${command}: ${parts} of ${expected} parts`))
    }, 5_000)
    socket.on("message", (datagram) => {
      const packet = BattlEyePacket.decodeServerPacket(datagram)
      if (packet?._tag === "LoginReply") socket.send(BattlEyePacket.command(0, command))
      if (packet?._tag === "CommandReply") {
        clearTimeout(timer)
        socket.close()
        resolve(1)
      }
      if (packet?._tag === "CommandPart") {
        parts++
        expected = packet.count
        if (parts === expected) {
          clearTimeout(timer)
          socket.close()
          resolve(parts)
        }
      }
    })
    socket.connect(install.rconPort, HOST, () => socket.send(BattlEyePacket.login(install.rconPassword)))
  })

/** A raw BattlEye client that records every copy of every server message (and acks them unless told not to). */
/**
 * A hand-driven RCon client: acknowledges the server messages `ack` accepts
 * (all, none, or those a predicate picks), and sends an empty command
 * (BattlEye's keep-alive) every `keepAliveMs` when given.
 */
const rawClient = (
  install: SimInstall,
  ack: boolean | ((text: string) => boolean) = true,
  keepAliveMs?: number
): Promise<{ messages: Array<string>; command: (text: string, timeoutMs: number) => Promise<string | undefined>; close: () => void }> =>
  new Promise((resolve) => {
    const socket = Dgram.createSocket("udp4")
    let keepAlive: ReturnType<typeof setInterval> | undefined
    const messages: Array<string> = []
    const waiting = new Map<number, (text: string) => void>()
    let seq = 0
    const command = (text: string, timeoutMs: number) =>
      new Promise<string | undefined>((done) => {
        const mine = seq++ & 0xff
        const timer = setTimeout(() => {
          waiting.delete(mine)
          done(undefined)
        }, timeoutMs)
        waiting.set(mine, (reply) => {
          clearTimeout(timer)
          done(reply)
        })
        socket.send(BattlEyePacket.command(mine, text))
      })
    socket.on("message", (datagram) => {
      const packet = BattlEyePacket.decodeServerPacket(datagram)
      if (packet?._tag === "LoginReply") {
        if (keepAliveMs !== undefined) keepAlive = setInterval(() => socket.send(BattlEyePacket.command(seq++ & 0xff, "")), keepAliveMs)
        resolve({
          messages,
          command,
          close: () => {
            clearInterval(keepAlive)
            socket.close()
          }
        })
      }
      if (packet?._tag === "CommandReply") waiting.get(packet.seq)?.(packet.data.toString("utf8"))
      if (packet?._tag === "ServerMessage") {
        const text = packet.data.toString("utf8")
        if (ack === true || (typeof ack === "function" && ack(text))) socket.send(BattlEyePacket.ack(packet.seq))
        messages.push(text)
      }
    })
    socket.connect(install.rconPort, HOST, () => socket.send(BattlEyePacket.login(install.rconPassword)))
  })
