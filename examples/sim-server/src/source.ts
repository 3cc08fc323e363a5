/**
 * Source RCON over TCP (what Source-engine games, Minecraft, ARK use), for
 * running the simulator as "another game". Packets: int32 size, int32 id,
 * int32 type, body, two NUL bytes (little-endian). `SERVERDATA_AUTH` (3) is
 * answered with `SERVERDATA_AUTH_RESPONSE` (2) carrying the request id, or
 * -1 for a wrong password; `SERVERDATA_EXECCOMMAND` (2) with one
 * `SERVERDATA_RESPONSE_VALUE` (0) holding the whole reply. Commands before
 * authentication are refused by closing the connection.
 */
import * as Net from "node:net"

export interface SourceServerOptions {
  readonly host: string
  readonly port: number
  readonly password: string
  readonly execute: (text: string, admin: number) => string
  readonly log: (line: string) => void
}

const AUTH = 3
const AUTH_RESPONSE = 2
const EXEC = 2
const RESPONSE = 0

const encode = (id: number, type: number, body: string): Buffer => {
  const text = Buffer.from(body, "utf8")
  const out = Buffer.alloc(14 + text.length)
  out.writeInt32LE(10 + text.length, 0)
  out.writeInt32LE(id, 4)
  out.writeInt32LE(type, 8)
  text.copy(out, 12)
  return out
}

export class SourceServer {
  private readonly server: Net.Server
  private readonly sockets = new Set<Net.Socket>()
  private nextAdmin = 0
  frozen = false

  constructor(private readonly options: SourceServerOptions) {
    this.server = Net.createServer((socket) => this.onConnection(socket))
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject)
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off("error", reject)
        resolve()
      })
    })
  }

  private onConnection(socket: Net.Socket): void {
    this.sockets.add(socket)
    socket.setNoDelay(true)
    let buffer = Buffer.alloc(0)
    let admin: number | undefined
    socket.on("error", () => socket.destroy())
    socket.on("close", () => this.sockets.delete(socket))
    socket.on("data", (chunk) => {
      if (this.frozen) return
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
      while (buffer.length >= 4) {
        const size = buffer.readInt32LE(0)
        if (size < 10 || size > 4096 + 10) {
          socket.destroy()
          return
        }
        if (buffer.length < size + 4) return
        const id = buffer.readInt32LE(4)
        const type = buffer.readInt32LE(8)
        const body = buffer.toString("utf8", 12, size + 2).replace(/\0+$/, "")
        buffer = buffer.subarray(size + 4)
        if (type === AUTH) {
          const accepted = body === this.options.password
          if (accepted) {
            admin = this.nextAdmin++
            this.options.log(`RCon admin #${admin} (${socket.remoteAddress}:${socket.remotePort}) logged in (Source RCON)`)
          }
          socket.write(encode(accepted ? id : -1, AUTH_RESPONSE, ""))
        } else if (type === EXEC) {
          if (admin === undefined) {
            socket.destroy()
            return
          }
          socket.write(encode(id, RESPONSE, this.options.execute(body, admin)))
        }
      }
    })
  }

  /** Ends every connection (replies already written still go out), then stops listening. */
  close(): Promise<void> {
    for (const socket of this.sockets) socket.end()
    const force = setTimeout(() => {
      for (const socket of this.sockets) socket.destroy()
    }, 500)
    return new Promise((resolve) =>
      this.server.close(() => {
        clearTimeout(force)
        resolve()
      })
    )
  }
}
