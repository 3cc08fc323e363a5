/**
 * The mod of the agent benchmark: answers each command file as soon as its
 * watcher sees it (read, write the response through a temporary name and a
 * rename, remove the command), in its own process like a game server's mod.
 * `node test/dist/bench/internal/instantMod.js` with env ROOTS (mod folders
 * separated by the path delimiter); prints "instant mod ready" once it
 * watches them; exits on SIGTERM.
 */
import * as Fs from "node:fs"
import * as FsP from "node:fs/promises"
import * as NodePath from "node:path"
import { pathToFileURL } from "node:url"

export const instantModScript = new URL(import.meta.url)

const serve = (root: string) => {
  const commands = NodePath.join(root, "commands")
  const responses = NodePath.join(root, "responses")
  Fs.mkdirSync(commands, { recursive: true })
  Fs.mkdirSync(responses, { recursive: true })
  const busy = new Set<string>()
  const answer = async (name: string) => {
    if (busy.has(name) || !name.endsWith(".json") || name.startsWith(".")) return
    busy.add(name)
    try {
      const path = NodePath.join(commands, name)
      const command = JSON.parse(await FsP.readFile(path, "utf8")) as { id: string; params: unknown }
      const temp = NodePath.join(responses, `.${command.id}.tmp`)
      await FsP.writeFile(temp, JSON.stringify({ id: command.id, ok: true, data: { echo: command.params }, timestamp: Date.now() }))
      await FsP.rename(temp, NodePath.join(responses, `${command.id}.json`))
      await FsP.unlink(path)
    } catch {
      // Gone already (withdrawn) or half-seen: the next event decides.
    } finally {
      busy.delete(name)
    }
  }
  Fs.watch(commands, (_event, name) => {
    if (name !== null) void answer(name.toString())
  })
}

const main = () => {
  for (const root of (process.env["ROOTS"] ?? "").split(NodePath.delimiter).filter((r) => r !== "")) serve(root)
  console.log("instant mod ready")
  process.once("SIGTERM", () => process.exit(0))
}

if (process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === import.meta.url) main()
