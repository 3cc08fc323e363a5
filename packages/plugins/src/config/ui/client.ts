/**
 * The config API for the Config tab: the typed client of the plugin's
 * contract (built when this chunk loads), and the save, which sends the
 * version the page read as `If-Match` (the contract declares no headers, so
 * it goes through the same transport by hand, its answer decoded with the
 * contract's `ServerConfig`). A file changed since is a 412 `ApiError`.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import { apiFor, call, http } from "@dashboard/api/client.js"
import { ConfigApi, ServerConfig } from "../contract/Api.js"

export const configApi = apiFor(ConfigApi)

/** `ServerConfig`'s fields are built from a list of `Schema.Any`, so it claims an unknown context; it needs none. */
const ServerConfigSchema = ServerConfig as unknown as Schema.Schema<ServerConfig, unknown>

export const readConfig = (serverId: string): Promise<ServerConfig> => configApi((c) => c.config.read({ path: { id: serverId } }))

/** `PATCH /api/servers/:id/config` with `If-Match: etag`: the file as it is after the change. */
export const saveConfig = (serverId: string, patch: Readonly<Record<string, unknown>>, etag: string): Promise<ServerConfig> =>
  call(
    http
      .execute(
        HttpClientRequest.patch(`${window.location.origin}/api/servers/${encodeURIComponent(serverId)}/config`).pipe(
          HttpClientRequest.setHeader("if-match", etag),
          HttpClientRequest.bodyUnsafeJson(patch)
        )
      )
      .pipe(Effect.flatMap(HttpClientResponse.schemaBodyJson(ServerConfigSchema)))
  )
