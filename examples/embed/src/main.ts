/**
 * Embedding the Garrison runtime in another program: the kernel and two
 * plugins, no HTTP server. Uses the community plugin's `Motd` service
 * directly, prints what it stored, and exits.
 *
 *   node examples/embed/dist/main.js [data-dir] [message...]
 *
 * Without a data directory it uses a fresh temporary one.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Motd, MotdPlugin } from "@garrison/example-community-plugin"
import { HealthPlugin } from "@garrison/plugins"
import { GarrisonConfig, PluginRegistry, Runtime } from "@garrison/runtime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as NodeFs from "node:fs"
import * as NodeOs from "node:os"
import * as NodePath from "node:path"

const [dataDirArg, ...words] = process.argv.slice(2)
const dataDir = dataDirArg ?? NodeFs.mkdtempSync(NodePath.join(NodeOs.tmpdir(), "garrison-embed-"))
const text = words.length > 0 ? words.join(" ") : "Hello from an embedding program"

const program = Effect.gen(function* () {
  const registry = yield* PluginRegistry
  const motd = yield* Motd
  yield* Console.log(`plugins: ${registry.plan.ordered.map((p) => p.id).join(", ")}`)
  const posted = yield* motd.post({ text, author: "embed" })
  yield* Console.log(`posted ${posted.id}`)
  const all = yield* motd.list
  yield* Console.log(`${all.length} message(s) in ${dataDir}:`)
  for (const message of all) yield* Console.log(`- [${message.postedAt}] ${message.author}: ${message.text}`)
})

// A short-lived tool: no scheduled backups, and only warnings from the runtime on the console.
const runtime = Runtime.layer([HealthPlugin, MotdPlugin], { scheduledBackups: false }).pipe(
  Layer.provide(GarrisonConfig.layerWith({ dataDir })),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

program.pipe(Effect.provide(runtime), NodeRuntime.runMain)
