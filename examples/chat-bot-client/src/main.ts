/**
 * The chat-bot client from a shell, to try an action by hand:
 *
 * ```
 * GARRISON_URL=http://127.0.0.1:8080 CHAT_BOT_API_KEY=gcb_... \
 *   node examples/chat-bot-client/dist/main.js <action> --user <chatUserId> \
 *   [--tag <display name>] [--server <id>] [--param key=value ...] [--param key:=<json> ...]
 * ```
 *
 * `--param key=value` sends the value as a string; `--param key:=5` sends it
 * as JSON (numbers, `true`, `false`). Prints the answer's `message` (the
 * error's, on stderr, for a refusal) and exits 0 on success, 1 on a refusal,
 * 2 on a usage or network error.
 */
import { type ChatCallInput, makeChatClient } from "./client.js"

const usage =
  "usage: main.js <action> --user <chatUserId> [--tag <name>] [--server <id>] [--param key=value ...] [--param key:=<json> ...]\n" +
  "environment: GARRISON_URL (the controller's address), CHAT_BOT_API_KEY (the bot key)"

const parse = (args: ReadonlyArray<string>): { action: string; input: ChatCallInput } => {
  let action: string | undefined
  let chatUserId: string | undefined
  let chatUserTag: string | undefined
  let serverId: string | undefined
  const params: Record<string, unknown> = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (!arg.startsWith("--")) {
      if (action !== undefined) throw new Error(`one action only (got "${action}" and "${arg}")`)
      action = arg
      continue
    }
    const value = args[++i]
    if (value === undefined) throw new Error(`${arg} needs a value`)
    if (arg === "--user") chatUserId = value
    else if (arg === "--tag") chatUserTag = value
    else if (arg === "--server") serverId = value
    else if (arg === "--param") {
      // `key:=json` or `key=string`, split at the first `=`.
      const match = /^([^=:]+)(:?)=(.*)$/s.exec(value)
      if (match === null) throw new Error(`--param takes key=value or key:=<json>, not "${value}"`)
      const [, key, json, raw] = match as unknown as [string, string, string, string]
      params[key] = json === ":" ? JSON.parse(raw) : raw
    } else throw new Error(`unknown option ${arg}`)
  }
  if (action === undefined) throw new Error("no action given")
  if (chatUserId === undefined) throw new Error("--user is required")
  return { action, input: { chatUserId, chatUserTag, serverId, params } }
}

const baseUrl = process.env["GARRISON_URL"]
const botKey = process.env["CHAT_BOT_API_KEY"]
try {
  if (baseUrl === undefined || baseUrl === "" || botKey === undefined || botKey === "") throw new Error("GARRISON_URL and CHAT_BOT_API_KEY must be set")
  const { action, input } = parse(process.argv.slice(2))
  const reply = await makeChatClient({ baseUrl, botKey }).call(action, input)
  if (reply.status === 200) {
    process.stdout.write(`${reply.body.message}\n`)
  } else {
    process.stderr.write(`${reply.status} ${reply.body.error}: ${reply.body.message}\n`)
    process.exitCode = 1
  }
} catch (error) {
  process.stderr.write(`chat-bot-client: ${error instanceof Error ? error.message : String(error)}\n${usage}\n`)
  process.exitCode = 2
}
