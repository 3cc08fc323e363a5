/** The host probes `garrison doctor` is made of: ports, folders, executables, an HTTP health answer. */
import { createSocket } from "node:dgram"
import { accessSync, constants, mkdtempSync, rmdirSync, statSync } from "node:fs"
import { createServer } from "node:net"
import * as NodePath from "node:path"

/** Whether a TCP port can be listened on at `host` now (the listener is closed at once); the error code when not. */
export const tcpPortFree = (host: string, port: number): Promise<string | undefined> =>
  new Promise((resolve) => {
    const server = createServer()
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(undefined)))
  })

/** Whether a UDP port can be bound on every interface (as a game server binds it); the error code when not. */
export const udpPortFree = (port: number): Promise<string | undefined> =>
  new Promise((resolve) => {
    const socket = createSocket({ type: "udp4", reuseAddr: false })
    socket.once("error", (error: NodeJS.ErrnoException) => {
      socket.close()
      resolve(error.code ?? error.message)
    })
    socket.bind({ port, address: "0.0.0.0", exclusive: true }, () => socket.close(() => resolve(undefined)))
  })

/**
 * Why `dir` (or, when it does not exist yet, the folder it would be created in) cannot be written, or undefined.
 * Both `access(W_OK)` and a real write (a folder made and removed): root passes `access` on a read-only mount
 * or a folder without write bits, and only the write tells.
 */
export const notWritable = (dir: string): string | undefined => {
  let at = dir
  for (;;) {
    try {
      const stats = statSync(at)
      if (!stats.isDirectory()) return at === dir ? `${dir} is not a folder` : `${at} is not a folder, so ${dir} cannot be created`
      break
    } catch {
      const parent = NodePath.dirname(at)
      if (parent === at) return `no folder above ${dir} exists`
      at = parent
    }
  }
  try {
    accessSync(at, constants.W_OK | constants.X_OK)
    rmdirSync(mkdtempSync(NodePath.join(at, ".garrison-doctor-")))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error)
    return at === dir ? `${dir} is not writable (${code})` : `${dir} does not exist and ${at} is not writable to create it (${code})`
  }
  return undefined
}

/** The executable `command` names (a path, or a name looked up on PATH), or undefined when there is none. */
export const findExecutable = (command: string): string | undefined => {
  const candidates = command.includes("/")
    ? [NodePath.resolve(command)]
    : (process.env["PATH"] ?? "").split(":").filter((dir) => dir !== "").map((dir) => NodePath.join(dir, command))
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not this one
    }
  }
  return undefined
}

/** Whether a process with this pid exists (signal 0: EPERM means it does, as another user's). */
export const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** `undefined` when `GET <url>/health` answers 2xx within `timeoutMs`; else what happened. */
export const httpHealth = async (url: string, timeoutMs: number): Promise<string | undefined> => {
  try {
    const response = await fetch(`${url.replace(/\/+$/, "")}/health`, { signal: AbortSignal.timeout(timeoutMs) })
    await response.arrayBuffer()
    return response.ok ? undefined : `answered ${response.status}`
  } catch (error) {
    const cause = (error as { readonly cause?: { readonly code?: string } }).cause
    return error instanceof Error && error.name === "TimeoutError" ? `no answer within ${timeoutMs / 1000} s` : (cause?.code ?? (error instanceof Error ? error.message : String(error)))
  }
}
