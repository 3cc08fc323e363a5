/**
 * What the chat-bot tests share: a controller with stand-in servers (`s1`
 * running with Bravo and Charlie online, `s2` stopped), accounts (roles), the
 * plugins the bot's actions call, and the chat plugin; a bot that signs its
 * calls as the conventions say.
 */
import { type AnyPlugin, initialState, makeServerEntry, type ServerActor } from "@garrison/runtime"
import { auditRecorder, call, fakeActor, identifiedPlayers, jsonBody, playersReply, request, stubServersPlugin, testController } from "@garrison/testkit"
import { Clock, Effect, LogLevel } from "effect"
import { AccountsPlugin } from "../../src/accounts/index.js"
import { ActionsPlugin } from "../../src/actions/index.js"
import { BansPlugin } from "../../src/bans/index.js"
import { chatSignature, ChatPlugin } from "../../src/chat/index.js"
import { ConfigPlugin } from "../../src/config/index.js"
import { ModsPlugin } from "../../src/mods/index.js"
import { PlayersPlugin } from "../../src/players/index.js"
import { PlatformPlugin } from "../../src/platform/index.js"
import { PriorityPlugin } from "../../src/priority/index.js"

export const ADMIN = "root:admin"
export const BOT_KEY = "gcb_test-bot-key-0123456789abcdefghijklmnopqrstuv"
export const BRAVO = "76561198012345678"
export const BRAVO_GUID = "2d3fe9abaa51e04aa876a7bcfe84e0d6"
export const ROSTER = playersReply([
  [4, BRAVO_GUID, "Bravo"],
  [5, "0123456789abcdef0123456789abcdef", "Charlie"]
])
const ONLINE = identifiedPlayers(ROSTER, [`Player "Bravo"(steamID=${BRAVO}) is connected`])
/** 2026-11-27T12:00:00Z, where the tests' TestClock starts. */
export const START_MS = Date.parse("2026-11-27T12:00:00Z")

export interface Fleet {
  /** RCON commands the servers were sent, `serverId: command`. */
  readonly said: Array<string>
  /** Start, stop and restart as the actors were asked. */
  readonly power: Array<string>
  readonly audit: ReturnType<typeof auditRecorder>
}

/** The agent beside `s1`, when the test starts one. */
export interface AgentAt {
  readonly url: string
  readonly key: string
}

const actorFor = (fleet: Fleet, id: string, name: string, running: boolean, agent?: AgentAt): ServerActor.ServerActor => {
  const entry = makeServerEntry({
    id,
    name,
    installDir: `/srv/${id}`,
    rcon: { protocol: "battleye", host: "127.0.0.1", port: 2306, password: "pw" },
    ...(agent === undefined ? {} : { agent: { url: agent.url, apiKey: agent.key } })
  })
  return fakeActor(id, {
    entry: Effect.succeed(entry),
    state: Effect.succeed({ ...initialState(id), status: running ? "running" : "stopped", map: "chernarusplus", players: running ? ONLINE : [] }),
    start: Effect.sync(() => void fleet.power.push(`${id}: start`)),
    stop: Effect.sync(() => void fleet.power.push(`${id}: stop`)),
    restart: () => Effect.sync(() => void fleet.power.push(`${id}: restart`)),
    rcon: (command) =>
      Effect.sync(() => {
        if (command === "players") return ROSTER
        fleet.said.push(`${id}: ${command}`)
        return ""
      }),
    players: Effect.succeed(ONLINE)
  })
}

/** `extra`: more plugins (the system plugin, for run-time settings). */
export const chatController = (config: Record<string, string> = {}, agent?: AgentAt, extra: ReadonlyArray<AnyPlugin> = []) => {
  const fleet: Fleet = { said: [], power: [], audit: auditRecorder() }
  const actors = new Map([
    ["s1", actorFor(fleet, "s1", "Chernarus", true, agent)],
    ["s2", actorFor(fleet, "s2", "Livonia", false)]
  ])
  const layer = testController(
    [fleet.audit.plugin, stubServersPlugin(actors), AccountsPlugin, PlayersPlugin, ActionsPlugin, PlatformPlugin, ModsPlugin, BansPlugin, PriorityPlugin, ConfigPlugin, ChatPlugin, ...extra],
    {
      dataPrefix: "garrison-chat-",
      logLevel: LogLevel.Error,
      config: {
        RATE_LIMIT_CHAT: "off",
        RATE_LIMIT_API: "off",
        ADMIN_USERNAME: "admin",
        ADMIN_PASSWORD: "a passphrase for the test controller",
        CHAT_BOT_API_KEY: BOT_KEY,
        ...config
      }
    }
  )
  return { fleet, layer }
}

export interface BotCall {
  readonly action: string
  readonly chatUserId?: string
  readonly serverId?: string
  readonly params?: Record<string, unknown>
  /** The call's fields as sent, when they differ from what was signed. */
  readonly sent?: { readonly action?: string; readonly chatUserId?: string }
  /** Seconds added to the clock's time for `X-Chat-Ts`. */
  readonly skew?: number
  readonly key?: string
  /** `false`: no signature headers; a string: this `X-Chat-Sig` instead of the right one. */
  readonly signature?: false | string
  readonly headers?: Record<string, string>
}

export const CHAT_USER = "111111111111111111"

/** A call as the bot makes it, signed with the bot key at the clock's time. */
export const bot = (spec: BotCall) =>
  Effect.gen(function* () {
    const chatUserId = spec.chatUserId ?? CHAT_USER
    const ts = Math.floor((yield* Clock.currentTimeMillis) / 1000) + (spec.skew ?? 0)
    const key = spec.key ?? BOT_KEY
    const signature = spec.signature === undefined ? chatSignature(key, ts, spec.action, chatUserId) : spec.signature
    const headers: Record<string, string> = {
      authorization: `Bearer ${key}`,
      ...(signature === false ? {} : { "x-chat-ts": String(ts), "x-chat-sig": signature }),
      ...spec.headers
    }
    const reply = yield* request("POST", "/api/chat/action", {
      headers,
      json: {
        action: spec.sent?.action ?? spec.action,
        chatUserId: spec.sent?.chatUserId ?? chatUserId,
        chatUserTag: "survivor#0001",
        ...(spec.serverId === undefined ? {} : { serverId: spec.serverId }),
        ...(spec.params === undefined ? {} : { params: spec.params })
      }
    })
    return { status: reply.status, headers: reply.headers, body: jsonBody<unknown>(reply.text, undefined) }
  })

/** Maps a chat user to a role, as an admin. */
export const mapUser = (chatUserId: string, role: string) => call("PUT", `/api/chat/user-roles/${chatUserId}`, { as: ADMIN, json: { role } })

export const makeRole = (name: string, permissions: ReadonlyArray<unknown>) => call("POST", "/api/roles", { as: ADMIN, json: { name, permissions } })
