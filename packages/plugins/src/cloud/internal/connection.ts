/**
 * One connection to the relay, from open to close: open the socket, say
 * `hello`, wait `WELCOME_TIMEOUT` for `welcome` (then the link is
 * connected and the server list goes out), and run the relay's actions in
 * fibers of their own. It fails (or ends) when the connection is over.
 */
import * as Socket from "@effect/platform/Socket"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberHandle from "effect/FiberHandle"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { displayRelay, OPEN_TIMEOUT } from "../config.js"
import type { ActionRequest, Outbound } from "../contract/Protocol.js"
import { type CloudContext, isMirrored, sendNow, setRuntime } from "./linkState.js"
import { mirrorList } from "./mirroredServers.js"
import { handleInbound, helloOf } from "./protocol.js"
import { runRemoteAction } from "./remote.js"

/** How long the relay has to answer `hello` with `welcome` before the connection is dropped and tried again. */
export const WELCOME_TIMEOUT = Duration.seconds(30)

/** What remote actions need: the servers, the audit trail, which are mirrored, and the link's role read again each time. */
const remoteDepsOf = (ctx: CloudContext) => ({
  servers: ctx.servers,
  audit: ctx.audit,
  mirrored: (serverId: string) => isMirrored(ctx, serverId),
  role: Effect.flatMap(Ref.get(ctx.link), (enabled) =>
    enabled === undefined
      ? Effect.succeed(Option.none())
      : Effect.map(Effect.orElseSucceed(ctx.roles.get(enabled.role), () => Option.none()), (record) => Option.some({ name: enabled.role, record }))
  )
})

/** Makes `connectOnce(url, token, connected)`: `connected` runs once the relay welcomes the connection. */
export const makeConnectOnce = (ctx: CloudContext) => {
  const remoteDeps = remoteDepsOf(ctx)
  return (url: string, token: string, connected: Effect.Effect<void>) =>
    Effect.scoped(
      Effect.gen(function* () {
        let ws: globalThis.WebSocket | undefined
        const socket = yield* Socket.fromWebSocket(
          Effect.acquireRelease(
            Effect.try({
              try: () => (ws = ctx.makeSocketOf(url)),
              catch: (cause) => new Socket.SocketGenericError({ reason: "Open", cause })
            }),
            (opened) => Effect.sync(() => opened.close(1000))
          ),
          { openTimeout: OPEN_TIMEOUT, closeCodeIsError: () => true }
        )
        // Never waits: a message for a connection that is closing is dropped (the relay gets the state on its next `welcome`).
        const send = (message: Outbound) =>
          Effect.sync(() => {
            if (ws !== undefined && ws.readyState === 1) ws.send(JSON.stringify(message))
          })
        let welcomed = false
        const welcomeTimer = yield* FiberHandle.make<void, never>()
        yield* Effect.addFinalizer(() => Ref.set(ctx.sender, Option.none()))
        const onWelcome = Effect.gen(function* () {
          if (welcomed) return
          welcomed = true
          yield* FiberHandle.clear(welcomeTimer)
          yield* Ref.set(ctx.sender, Option.some(send))
          const now = yield* Clock.currentTimeMillis
          yield* setRuntime(ctx, { state: "connected", attempt: 0, nextAttemptAt: null, lastConnectedAt: now })
          yield* connected
          yield* send({ type: "servers", servers: yield* mirrorList(ctx) })
          yield* Effect.logInfo(`cloud: connected to the relay ${displayRelay(url)}`)
        })
        const handlers = {
          send,
          welcomed: () => welcomed,
          onWelcome,
          // In a fiber of its own: a connection that drops does not cut the action short.
          onAction: (request: ActionRequest) =>
            Effect.asVoid(FiberSet.run(ctx.actions, Effect.flatMap(runRemoteAction(remoteDeps, request), (answer) => sendNow(ctx, answer))))
        }
        yield* socket.runRaw((data) => handleInbound(handlers, data), {
          onOpen: Effect.gen(function* () {
            yield* send(helloOf(token, ctx.version))
            yield* FiberHandle.run(welcomeTimer)(
              Effect.zipRight(
                Effect.sleep(WELCOME_TIMEOUT),
                Effect.sync(() => ws?.close(4000, "no welcome"))
              )
            )
          })
        })
      })
    )
}
