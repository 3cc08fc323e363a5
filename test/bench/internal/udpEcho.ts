/**
 * The baseline for the RCON benchmark: a bare UDP echo server (each
 * datagram is sent straight back to its sender), run as its own process
 * like the simulator. `node test/dist/bench/internal/udpEcho.js` with env
 * PORT and HOST; prints "udp echo listening" when bound; exits on SIGTERM.
 */
import * as Dgram from "node:dgram"
import { pathToFileURL } from "node:url"

export const udpEchoScript = new URL(import.meta.url)

const main = () => {
  const port = Number(process.env["PORT"])
  const host = process.env["HOST"] ?? "127.0.0.1"
  const socket = Dgram.createSocket("udp4")
  socket.on("message", (datagram, rinfo) => socket.send(datagram, rinfo.port, rinfo.address))
  socket.bind(port, host, () => console.log(`udp echo listening on ${host}:${port}`))
  process.once("SIGTERM", () => socket.close(() => process.exit(0)))
}

if (process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === import.meta.url) main()
