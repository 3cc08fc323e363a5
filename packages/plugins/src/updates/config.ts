/**
 * Where deploys put new servers: `DEPLOY_DIR` (default `<DATA_DIR>/servers`).
 * A deploy's `installDir` is a folder inside it; requests never make
 * folders anywhere else on the host.
 */
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as NodePath from "node:path"
import { GarrisonConfig } from "@garrison/runtime"

export const deployConfig = Effect.gen(function* () {
  const config = yield* GarrisonConfig
  const set = yield* Config.option(Config.string("DEPLOY_DIR"))
  return { deployDir: set._tag === "Some" && set.value.trim() !== "" ? NodePath.resolve(set.value) : NodePath.join(config.dataDir, "servers") }
})
