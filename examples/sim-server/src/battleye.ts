/**
 * BattlEye RCon over UDP, the server side, written from the protocol text
 * (independently of Garrison's client, so each checks the other):
 *
 * - `0x00` login: `0x00 0x01` accepted, `0x00 0x00` refused. Packets from a
 *   client that has not logged in are ignored.
 * - `0x01` command: the reply carries the same seq; replies longer than the
 *   part size go out as numbered parts (`0x00`, count, index).
 * - `0x02` server messages to every logged-in client, each with the client's
 *   own seq (wrapping 255 to 0), repeated every `retryMs` until acknowledged;
 *   a client that leaves one unacknowledged through 5 resends is dropped, as
 *   real servers drop a client that stopped answering.
 * - Only command packets (an empty one is the keep-alive) keep a client
 *   logged in: acknowledgements do not. A client that sends no command for
 *   `clientTimeoutMs` (45 s on a real server) is dropped.
 * - `admins` is answered here (only this layer knows the RCon clients).
 */
import * as Dgram from "node:dgram"
import { crc32 } from "node:zlib"

export interface BattlEyeServerOptions {
  readonly host: string
  readonly port: number
  readonly password: string
  readonly partSize: number
  /** Send the parts of a multi-part reply in reverse order (exercises reassembly). */
  readonly shuffleParts: boolean
  /** Acks to ignore per message, forcing that many retries. */
  readonly dropAcks: number
  readonly retryMs: number
  readonly clientTimeoutMs: number
  /** Runs a command for admin number `admin`; returns the reply text. */
  readonly execute: (text: string, admin: number) => string
  readonly onLogin: (admin: number, address: string, port: number) => void
  readonly log: (line: string) => void
  /** Milliseconds now; tests pass their own to judge the keep-alive rule without waiting 45 s. */
  readonly now?: () => number
}

const MAX_RETRIES = 5

const packet = (type: number, payload: Buffer): Buffer => {
  const out = Buffer.alloc(8 + payload.length)
  out[0] = 0x42
  out[1] = 0x45
  out[6] = 0xff
  out[7] = type
  payload.copy(out, 8)
  out.writeUInt32LE(crc32(out.subarray(6)) >>> 0, 2)
  return out
}

const seqText = (type: number, seq: number, text: string | Buffer) => {
  const body = typeof text === "string" ? Buffer.from(text, "utf8") : text
  const out = Buffer.allocUnsafe(9 + body.length)
  out[0] = 0x42
  out[1] = 0x45
  out[6] = 0xff
  out[7] = type
  out[8] = seq & 0xff
  body.copy(out, 9)
  out.writeUInt32LE(crc32(out.subarray(6)) >>> 0, 2)
  return out
}

const clientKey = (client: { readonly address: string; readonly port: number }) => `${client.address}:${client.port}`

interface Unacked {
  readonly packet: Buffer
  retries: number
  dropsLeft: number
  timer: NodeJS.Timeout | undefined
}

interface Client {
  readonly address: string
  readonly port: number
  readonly admin: number
  lastSeen: number
  nextSeq: number
  readonly unacked: Map<number, Unacked>
}

export class BattlEyeServer {
  // Replies go to the numeric address a datagram came from: no name lookup (and no extra tick) per send.
  private readonly socket = Dgram.createSocket({
    type: "udp4",
    lookup: (address, _options, callback) => callback(null, address, 4)
  })
  private readonly clients = new Map<string, Client>()
  private readonly now: () => number
  private nextAdmin = 0
  private sweeper: NodeJS.Timeout | undefined
  /** While frozen (hang mode "freeze") every datagram is ignored. */
  frozen = false

  constructor(private readonly options: BattlEyeServerOptions) {
    this.now = options.now ?? Date.now
  }

  start(): Promise<void> {
    this.socket.on("message", (datagram, rinfo) => this.onDatagram(datagram, rinfo.address, rinfo.port))
    this.socket.on("error", (error) => this.options.log(`BattlEye RCon socket error: ${error.message}`))
    this.sweeper = setInterval(() => this.sweep(), Math.min(1000, Math.max(10, this.options.clientTimeoutMs / 4)))
    return new Promise((resolve, reject) => {
      this.socket.once("error", reject)
      this.socket.bind(this.options.port, this.options.host, () => {
        this.socket.off("error", reject)
        resolve()
      })
    })
  }

  /** The bound UDP port (useful when started on port 0). */
  get port(): number {
    return this.socket.address().port
  }

  get clientCount(): number {
    return this.clients.size
  }

  private sendTo(data: Buffer, port: number, address: string): void {
    this.socket.send(data, port, address)
  }

  private send(client: Client, data: Buffer): void {
    this.sendTo(data, client.port, client.address)
  }

  private onDatagram(datagram: Buffer, address: string, port: number): void {
    if (this.frozen || datagram.length < 8) return
    if (datagram[0] !== 0x42 || datagram[1] !== 0x45 || datagram[6] !== 0xff) return
    if ((crc32(datagram.subarray(6)) >>> 0) !== datagram.readUInt32LE(2)) return
    const type = datagram[7]
    const key = `${address}:${port}`
    if (type === 0x00) {
      const accepted = datagram.toString("latin1", 8) === this.options.password
      this.sendTo(packet(0x00, Buffer.of(accepted ? 1 : 0)), port, address)
      if (!accepted) return
      const previous = this.clients.get(key)
      if (previous !== undefined) this.forget(previous)
      const client: Client = { address, port, admin: this.nextAdmin++, lastSeen: this.now(), nextSeq: 0, unacked: new Map() }
      this.clients.set(key, client)
      this.options.onLogin(client.admin, address, port)
      return
    }
    const client = this.clients.get(key)
    if (client === undefined || datagram.length < 9) return
    const seq = datagram[8]!
    if (type === 0x01) {
      // Only commands count as keep-alive: a client that merely acknowledges messages is not "there".
      client.lastSeen = this.now()
      const text = datagram.toString("utf8", 9)
      const reply = text === "" ? "" : /^\s*admins\s*$/i.test(text) ? this.renderAdmins() : this.options.execute(text, client.admin)
      this.reply(client, seq, reply)
    } else if (type === 0x02) {
      const pending = client.unacked.get(seq)
      if (pending === undefined) return
      if (pending.dropsLeft > 0) {
        pending.dropsLeft--
        return
      }
      if (pending.timer !== undefined) clearTimeout(pending.timer)
      client.unacked.delete(seq)
    }
  }

  private lastText = ""
  private lastBytes = Buffer.alloc(0)

  private reply(client: Client, seq: number, text: string): void {
    // Repeated replies (a busy admin tool polling `players`) are encoded once.
    if (text !== this.lastText) {
      this.lastText = text
      this.lastBytes = Buffer.from(text, "utf8")
    }
    const bytes = this.lastBytes
    if (bytes.length <= this.options.partSize) {
      this.send(client, seqText(0x01, seq, bytes))
      return
    }
    const size = Math.max(this.options.partSize, Math.ceil(bytes.length / 255))
    const count = Math.ceil(bytes.length / size)
    const parts: Array<Buffer> = []
    for (let index = 0; index < count; index++) {
      const header = Buffer.of(seq, 0x00, count, index)
      parts.push(packet(0x01, Buffer.concat([header, bytes.subarray(index * size, (index + 1) * size)])))
    }
    if (this.options.shuffleParts) parts.reverse()
    for (const part of parts) this.send(client, part)
  }

  /** Sends a server message to every logged-in client, retried until acknowledged. */
  broadcast(text: string): void {
    if (this.frozen) return
    for (const client of this.clients.values()) {
      const seq = client.nextSeq
      client.nextSeq = (client.nextSeq + 1) & 0xff
      const old = client.unacked.get(seq)
      if (old?.timer !== undefined) clearTimeout(old.timer)
      const entry: Unacked = { packet: seqText(0x02, seq, text), retries: 0, dropsLeft: this.options.dropAcks, timer: undefined }
      client.unacked.set(seq, entry)
      const attempt = () => {
        this.send(client, entry.packet)
        if (entry.retries >= MAX_RETRIES) {
          // The last resend went unanswered too: the client is gone, as a real server judges it.
          entry.timer = setTimeout(() => {
            if (client.unacked.get(seq) !== entry || this.clients.get(clientKey(client)) !== client) return
            this.options.log(`RCon admin #${client.admin} (${client.address}:${client.port}) dropped: message ${seq} not acknowledged after ${MAX_RETRIES} resends`)
            this.forget(client)
          }, this.options.retryMs)
          return
        }
        entry.timer = setTimeout(() => {
          if (client.unacked.get(seq) !== entry || this.clients.get(clientKey(client)) !== client) return
          entry.retries++
          attempt()
        }, this.options.retryMs)
      }
      attempt()
    }
  }

  /** The `admins` reply: the RCon clients logged in now, by admin number, as a real server lists them. */
  private renderAdmins(): string {
    const rows = [...this.clients.values()].sort((a, b) => a.admin - b.admin).map((c) => `${String(c.admin).padEnd(3)} ${c.address}:${c.port}`)
    return ["Connected RCon admins:", "[#] [IP Address]:[Port]", "-----------------------------", ...rows].join("\n")
  }

  private forget(client: Client): void {
    for (const entry of client.unacked.values()) if (entry.timer !== undefined) clearTimeout(entry.timer)
    client.unacked.clear()
    if (this.clients.get(clientKey(client)) === client) this.clients.delete(clientKey(client))
  }

  /** Drops every client that sent no command for `clientTimeoutMs` (runs on a timer; tests call it after moving their clock). */
  sweep(): void {
    const now = this.now()
    for (const client of [...this.clients.values()]) {
      if (now - client.lastSeen > this.options.clientTimeoutMs) {
        this.options.log(`RCon admin #${client.admin} (${client.address}:${client.port}) timed out`)
        this.forget(client)
      }
    }
  }

  async close(): Promise<void> {
    if (this.sweeper !== undefined) clearInterval(this.sweeper)
    for (const client of [...this.clients.values()]) this.forget(client)
    // Datagrams still queued (the reply to `#shutdown`) must get out before the socket closes.
    await new Promise((resolve) => setImmediate(resolve))
    for (let waited = 0; this.socket.getSendQueueCount() > 0 && waited < 500; waited += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    return new Promise((resolve) => {
      try {
        this.socket.close(() => resolve())
      } catch {
        resolve()
      }
    })
  }
}
