/**
 * Server configuration (spec "Configuration", `server.config`): each
 * server's `serverDZ.cfg` as typed fields, changed in place with an ETag
 * check, and per-server templates of the whole file. See README.md.
 */
import * as Effect from "effect/Effect"
import { on, Plugin, ServerDeleted } from "@garrison/runtime"
import { ConfigApi } from "./contract/Api.js"
import { migrations } from "./migrations.js"
import { ConfigRoutes } from "./routes.js"
import { ServerConfigs } from "./ServerConfigs.js"

export const ConfigPlugin = Plugin.make({
  id: "config",
  description: "Server configuration files as typed fields, changed in place; configuration templates",
  dependsOn: ["servers"],
  migrations,
  layer: ServerConfigs.layer,
  http: Plugin.http(ConfigApi, ConfigRoutes),
  events: [on(ServerDeleted, (event) => Effect.flatMap(ServerConfigs, (configs) => configs.forgetServer(event.serverId)), "forgetServer")]
})

export {
  CONFIG_PERMISSION,
  ConfigApi,
  ConfigFields,
  ConfigGroup,
  ConfigPatch,
  ConfigProblem,
  ConfigTemplate,
  ConfigTemplates,
  ServerConfig,
  TemplateInput as ConfigTemplateInput,
  TemplateRestored as ConfigTemplateRestored,
  UnknownSetting as ConfigUnknownSetting
} from "./contract/Api.js"
export { KNOWN_KEYS as CONFIG_KNOWN_KEYS, SECRET_MASK as CONFIG_SECRET_MASK } from "./internal/knownKeys.js"
export type { KeyKind as ConfigKeyKind, KnownKey as ConfigKnownKey } from "./internal/knownKeys.js"
export { CONFIG_KEY, MAX_CONFIG_BYTES, ServerConfigs } from "./ServerConfigs.js"
export type { ServerConfigsShape } from "./ServerConfigs.js"
export { ConfigConflict, ConfigNotFound, ConfigStoreError } from "./errors.js"
export type { ConfigError } from "./errors.js"
