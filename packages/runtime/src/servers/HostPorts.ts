/**
 * Is a port free on this host? Asked before a game server is spawned, so a
 * start onto a port something else holds is refused with the port named,
 * instead of a server that starts and then cannot bind (or, worse, an RCON
 * session that reaches whatever holds the port). A bind of our own, closed
 * at once, is the only reliable test: UDP has no "connect refused".
 */
import * as Effect from "effect/Effect"
import * as Dgram from "node:dgram"
import * as Net from "node:net"
import type { HostPort } from "./EntryPorts.js"

const udpTaken = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = Dgram.createSocket({ type: "udp4", reuseAddr: false })
    socket.once("error", (error: NodeJS.ErrnoException) => {
      socket.close()
      resolve(error.code === "EADDRINUSE" || error.code === "EACCES")
    })
    socket.bind({ port, address: "0.0.0.0", exclusive: true }, () => socket.close(() => resolve(false)))
  })

const tcpTaken = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = Net.createServer()
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "EADDRINUSE" || error.code === "EACCES"))
    server.listen({ port, host: "0.0.0.0", exclusive: true }, () => server.close(() => resolve(false)))
  })

/** The ports of `ports` something on this host holds now. */
export const takenHostPorts = (ports: ReadonlyArray<HostPort>): Effect.Effect<ReadonlyArray<HostPort>> =>
  Effect.promise(async () => {
    const taken: Array<HostPort> = []
    for (const port of ports) {
      if (await (port.protocol === "udp" ? udpTaken(port.port) : tcpTaken(port.port))) taken.push(port)
    }
    return taken
  })
