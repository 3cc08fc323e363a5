/**
 * The simulator's BattlEye RCon server against the protocol text
 * (BERConProtocol v2), point by point, driven by a raw UDP client that builds
 * every packet by hand ('BE', CRC-32 little-endian, 0xFF, type, payload): it
 * shares no code with the server, nor with Garrison's client.
 *
 * Resend timing uses short real timers (100 ms); the 45 s keep-alive rule runs
 * on an injected clock, so nothing here waits 45 s.
 */
import { afterEach, describe, expect, it } from "vitest"
import * as Dgram from "node:dgram"
import * as Fs from "node:fs"
import { tmpdir } from "node:os"
import * as NodePath from "node:path"
import { crc32 } from "node:zlib"
import { BattlEyeServer, type BattlEyeServerOptions } from "../src/battleye.js"
import { BattlEyeBans } from "../src/beBans.js"

const FIXTURES = NodePath.join(import.meta.dirname, "fixtures")

// ---------------------------------------------------------------------------
// The raw client
// ---------------------------------------------------------------------------

/** 'B' 'E', CRC-32 of everything from 0xFF on (little-endian), 0xFF, type, payload. */
const frame = (type: number, payload: Buffer): Buffer => {
  const body = Buffer.concat([Buffer.of(0xff, type), payload])
  const out = Buffer.alloc(6 + body.length)
  out.write("BE", 0, "latin1")
  out.writeUInt32LE(crc32(body) >>> 0, 2)
  body.copy(out, 6)
  return out
}
const loginPacket = (password: string) => frame(0x00, Buffer.from(password, "latin1"))
const commandPacket = (seq: number, text: string) => frame(0x01, Buffer.concat([Buffer.of(seq), Buffer.from(text, "utf8")]))
const ackPacket = (seq: number) => frame(0x02, Buffer.of(seq))

interface Datagram {
  readonly type: number
  readonly payload: Buffer
}

class RawClient {
  readonly socket = Dgram.createSocket("udp4")
  readonly received: Array<Datagram> = []
  private waiters = new Set<() => void>()
  /** Acknowledge every server message (0x02) at once. */
  autoAck = false

  constructor(private readonly serverPort: number) {
    this.socket.on("message", (raw) => {
      // Every datagram the server sends must be a well-formed, CRC-checked BE packet.
      expect(raw.subarray(0, 2).toString("latin1")).toBe("BE")
      expect(raw[6]).toBe(0xff)
      expect(raw.readUInt32LE(2)).toBe(crc32(raw.subarray(6)) >>> 0)
      const datagram = { type: raw[7]!, payload: raw.subarray(8) }
      this.received.push(datagram)
      if (this.autoAck && datagram.type === 0x02) this.send(ackPacket(datagram.payload[0]!))
      for (const waiter of [...this.waiters]) waiter()
    })
  }

  async open(): Promise<this> {
    await new Promise<void>((resolve) => this.socket.bind(0, "127.0.0.1", resolve))
    return this
  }

  get port(): number {
    return this.socket.address().port
  }

  send(packet: Buffer): void {
    this.socket.send(packet, this.serverPort, "127.0.0.1")
  }

  /** Resolves with the received datagrams once `done(received)` holds; rejects after `timeoutMs`. */
  until<T>(done: (received: Array<Datagram>) => T | undefined, timeoutMs = 3000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const result = done(this.received)
        if (result === undefined) return
        this.waiters.delete(check)
        clearTimeout(timer)
        resolve(result)
      }
      const timer = setTimeout(() => {
        this.waiters.delete(check)
        reject(new Error(`no such reply within ${timeoutMs} ms (received ${this.received.length})`))
      }, timeoutMs)
      this.waiters.add(check)
      check()
    })
  }

  async login(password = "pw"): Promise<void> {
    const from = this.received.length
    this.send(loginPacket(password))
    const reply = await this.until((r) => r.slice(from).find((d) => d.type === 0x00))
    expect([...reply.payload]).toEqual([0x01])
  }

  /** Sends a command and reassembles its reply (single or multi-part) by index. */
  async command(seq: number, text: string, timeoutMs = 3000): Promise<{ text: string; parts: Array<Buffer> }> {
    const from = this.received.length
    this.send(commandPacket(seq, text))
    return this.until((r) => {
      const mine = r.slice(from).filter((d) => d.type === 0x01 && d.payload[0] === seq)
      if (mine.length === 0) return undefined
      if (mine[0]!.payload.length < 2 || mine[0]!.payload[1] !== 0x00 || mine[0]!.payload.length < 4) {
        return { text: mine[0]!.payload.toString("utf8", 1), parts: [mine[0]!.payload.subarray(1)] }
      }
      const count = mine[0]!.payload[2]!
      const parts = new Array<Buffer | undefined>(count).fill(undefined)
      for (const d of mine) {
        expect(d.payload[1]).toBe(0x00)
        expect(d.payload[2]).toBe(count)
        parts[d.payload[3]!] = d.payload.subarray(4)
      }
      if (parts.some((p) => p === undefined)) return undefined
      return { text: Buffer.concat(parts as Array<Buffer>).toString("utf8"), parts: parts as Array<Buffer> }
    }, timeoutMs)
  }

  /** True when a command gets no reply within `ms` (the server ignores this client). */
  async ignored(seq: number, ms = 150): Promise<boolean> {
    return this.command(seq, "", ms).then(
      () => false,
      () => true
    )
  }

  messages(): Array<{ seq: number; text: string }> {
    return this.received.filter((d) => d.type === 0x02).map((d) => ({ seq: d.payload[0]!, text: d.payload.toString("utf8", 1) }))
  }

  close(): void {
    this.socket.close()
  }
}

// ---------------------------------------------------------------------------
// Set-up
// ---------------------------------------------------------------------------

const opened: Array<{ close: () => unknown }> = []
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close()
})

const startServer = async (options: Partial<BattlEyeServerOptions> = {}) => {
  const logs: Array<string> = []
  const server = new BattlEyeServer({
    host: "127.0.0.1",
    port: 0,
    password: "pw",
    partSize: 1024,
    shuffleParts: false,
    dropAcks: 0,
    retryMs: 100,
    clientTimeoutMs: 45_000,
    execute: (text) => `echo ${text}`,
    onLogin: () => undefined,
    log: (line) => logs.push(line),
    ...options
  })
  await server.start()
  opened.push(server)
  return { server, logs }
}

/** Polls `condition` every 5 ms (for state the server changes on its own timers). */
const waitFor = async (condition: () => boolean, timeoutMs = 3000) => {
  for (const start = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 5))) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time")
  }
}

const client = async (server: BattlEyeServer) => {
  const raw = await new RawClient(server.port).open()
  opened.push(raw)
  return raw
}

const tempBans = (fixture?: string) => {
  const dir = Fs.mkdtempSync(NodePath.join(tmpdir(), "sim-be-"))
  opened.push({ close: () => Fs.rmSync(dir, { recursive: true, force: true }) })
  const file = NodePath.join(dir, "bans.txt")
  if (fixture !== undefined) Fs.copyFileSync(NodePath.join(FIXTURES, fixture), file)
  return { file, bans: new BattlEyeBans(file) }
}

const bansServer = (bans: BattlEyeBans, options: Partial<BattlEyeServerOptions> = {}) =>
  startServer({ execute: (text) => bans.command(text.trim().split(/\s+/)[0] ?? "") ?? "Unknown command", ...options })

// ---------------------------------------------------------------------------

describe("the raw client's packets", () => {
  it("match the protocol's worked example (keep-alive, seq 0)", () => {
    expect(commandPacket(0, "").toString("hex")).toBe("4245bedcc258ff0100")
  })
})

describe("BattlEye RCon server, point by point", () => {
  it("(1) a client that never acknowledges a server message gets it 1 + 5 times, then is dropped; an acknowledging one stays", async () => {
    const { server, logs } = await startServer()
    const silent = await client(server)
    const polite = await client(server)
    await silent.login()
    await polite.login()
    polite.autoAck = true
    server.broadcast("Player #0 Bravo17 disconnected")

    await polite.until((r) => (r.some((d) => d.type === 0x02) ? true : undefined))
    const copies = await silent.until((r) => {
      const n = r.filter((d) => d.type === 0x02).length
      return n >= 6 ? n : undefined
    })
    expect(copies).toBe(6)
    // Every copy carries the same seq (so a client can de-duplicate).
    expect(new Set(silent.messages().map((m) => m.seq))).toEqual(new Set([0]))
    await waitFor(() => server.clientCount === 1)
    expect(logs.some((l) => /dropped: message 0 not acknowledged after 5 resends/.test(l))).toBe(true)
    // No seventh copy, and the dropped client is no longer served.
    expect(await silent.ignored(1)).toBe(true)
    expect(silent.messages()).toHaveLength(6)
    // The acknowledging client got the message once and is still served.
    expect(polite.messages()).toHaveLength(1)
    expect((await polite.command(1, "players")).text).toBe("echo players")
    // The dropped client can log in again.
    await silent.login()
    expect(server.clientCount).toBe(2)
  })

  it("(2) acknowledgements are not keep-alives: only command packets (the empty one too) keep a client for 45 s", async () => {
    let now = 1_000_000
    const { server } = await startServer({ now: () => now, retryMs: 60_000 })
    const acker = await client(server)
    const keeper = await client(server)
    await acker.login()
    await keeper.login()
    acker.autoAck = true
    keeper.autoAck = true

    now += 30_000
    server.broadcast("Player #1 Alpha disconnected")
    await acker.until((r) => (r.some((d) => d.type === 0x02) ? true : undefined))
    // The acker's ack went out before this keep-alive, on the same loopback path.
    expect((await keeper.command(0, "")).text).toBe("")
    server.sweep()
    expect(server.clientCount).toBe(2)

    now += 15_001 // 45 s since the acker's login (its last command); 15 s since the keeper's keep-alive
    server.sweep()
    expect(server.clientCount).toBe(1)
    expect(await acker.ignored(0)).toBe(true)
    expect((await keeper.command(1, "players")).text).toBe("echo players")

    now += 44_999 // the keeper's last command was 'players' just now (same clock reading)
    server.sweep()
    expect(server.clientCount).toBe(1)
    now += 2
    server.sweep()
    expect(server.clientCount).toBe(0)
  })

  it("(3) a `bans` answer with 207 GUID and 33 IP bans comes in parts split at the byte limit; the parts in index order are the exact text", async () => {
    const { bans } = tempBans("bans.txt")
    expect(bans.load()).toBe(240)
    const { server } = await bansServer(bans, { shuffleParts: true })
    const raw = await client(server)
    await raw.login()
    const whole = bans.render()
    const answer = await raw.command(7, "bans")

    expect(answer.text).toBe(whole)
    const bytes = Buffer.byteLength(whole)
    expect(answer.parts.length).toBe(Math.ceil(bytes / 1024))
    expect(answer.parts.length).toBeGreaterThan(5)
    for (const part of answer.parts.slice(0, -1)) expect(part.length).toBe(1024)
    // Split at the byte limit, not at line ends: some part ends mid-line, and nothing is lost at the seams.
    expect(answer.parts.some((p) => p[p.length - 1] !== 0x0a)).toBe(true)
    // Every ban line has its number, a separator, the id, minutes left: the numbers ≥ 100 too.
    const lines = answer.text.split("\n")
    const guidLines = lines.filter((l) => /^\d+ +[0-9a-f]{32} +(perm|-|\d+)( .*)?$/.test(l))
    const ipLines = lines.filter((l) => /^\d+ +\d{1,3}(\.\d{1,3}){3} +(perm|-|\d+)( .*)?$/.test(l))
    expect(guidLines).toHaveLength(207)
    expect(ipLines).toHaveLength(33)
    expect(ipLines[11]).toMatch(/^218 \d/)
    expect(guidLines.map((l) => Number(l.split(" ")[0]))).toEqual([...Array(207).keys()])
    expect(ipLines.map((l) => Number(l.split(" ")[0]))).toEqual([...Array(33).keys()].map((i) => 207 + i))
    // A short answer is one packet with no part header.
    expect((await raw.command(8, "loadBans")).parts).toEqual([Buffer.alloc(0)])
  })

  it("(4) the sequence number wraps 255 -> 0, for commands and for server messages", async () => {
    const { server } = await startServer()
    const raw = await client(server)
    await raw.login()
    raw.autoAck = true
    for (let i = 250; i < 262; i++) {
      const seq = i & 0xff
      expect((await raw.command(seq, `c${i}`)).text).toBe(`echo c${i}`)
    }
    // One at a time, each acknowledged before the next, as a live server's messages come.
    for (let i = 0; i < 258; i++) {
      server.broadcast(`message ${i}`)
      await raw.until((r) => r.find((d) => d.type === 0x02 && d.payload.toString("utf8", 1) === `message ${i}`))
    }
    const seqByText = new Map(raw.messages().map((m) => [m.text, m.seq]))
    expect(seqByText.size).toBe(258)
    expect(seqByText.get("message 254")).toBe(254)
    expect(seqByText.get("message 255")).toBe(255)
    expect(seqByText.get("message 256")).toBe(0)
    expect(seqByText.get("message 257")).toBe(1)
    expect(server.clientCount).toBe(1)
  })

  it("(5) `admins` lists the connected RCon admins in the real format", async () => {
    const { server } = await startServer()
    const first = await client(server)
    const second = await client(server)
    await first.login()
    await second.login()
    const reply = await first.command(0, "admins")
    expect(reply.text).toBe(
      [
        "Connected RCon admins:",
        "[#] [IP Address]:[Port]",
        "-----------------------------",
        `0   127.0.0.1:${first.port}`,
        `1   127.0.0.1:${second.port}`
      ].join("\n")
    )
  })

  it("(6) `bans`, `loadBans`, `writeBans`: bans.txt read and written in BattlEye's format", async () => {
    const { file, bans } = tempBans("bans.txt")
    const original = Fs.readFileSync(file, "utf8")
    const { server } = await bansServer(bans)
    const raw = await client(server)
    await raw.login()

    // Nothing loaded yet: empty sections.
    expect((await raw.command(0, "bans")).text).not.toMatch(/^\d/m)
    expect((await raw.command(1, "loadBans")).text).toBe("")
    const loaded = (await raw.command(2, "bans")).text
    expect(loaded).toMatch(/^0 {3}edc48a4a45cdc3e925dc160020c42595 perm Cheating$/m)
    // An IP ban that expired in 2020 shows '-'; one ending after 2100 shows its minutes left.
    expect(loaded).toMatch(/^207 85\.29\.10\.246 {4}- Admin Ban \(cheating\)$/m)
    expect(loaded).toMatch(/^\d+ +[0-9a-f]{32} [1-9]\d{6,} /m)

    // A ban added to the file by hand shows only after `loadBans`.
    Fs.appendFileSync(file, "0123456789abcdef0123456789abcdef -1 added by hand\n")
    expect((await raw.command(3, "bans")).text).not.toContain("0123456789abcdef0123456789abcdef")
    await raw.command(4, "loadBans")
    expect((await raw.command(5, "bans")).text).toMatch(/^207 0123456789abcdef0123456789abcdef perm added by hand$/m)

    // `writeBans` writes `<id> <expiry or -1> <reason>` lines, GUID bans first, every entry kept.
    Fs.writeFileSync(file, "")
    expect((await raw.command(6, "writeBans")).text).toBe("")
    const written = Fs.readFileSync(file, "utf8").split("\n").filter((l) => l !== "")
    const expected = [...original.split("\n"), "0123456789abcdef0123456789abcdef -1 added by hand"].filter((l) => l !== "")
    const isGuid = (l: string) => /^[0-9a-f]{32} /.test(l)
    expect(written).toEqual([...expected.filter(isGuid), ...expected.filter((l) => !isGuid(l))])
    expect(written).toHaveLength(241)
    for (const line of written) expect(line).toMatch(/^(\S+) (-1|\d{10})( .+)?$/)
  })
})
