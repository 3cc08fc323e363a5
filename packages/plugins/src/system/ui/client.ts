/**
 * `PATCH /api/system/config` for the settings form: the settings as they
 * are after it, or the `ApiError` whose `fields` name the keys at fault
 * (`details: [{path: KEY, message}]`).
 */
import { api } from "@dashboard/api/client.js"
import type { SystemConfig } from "../contract/Api.js"

export const patchConfig = (payload: Readonly<Record<string, unknown>>): Promise<SystemConfig> =>
  api((c) => c.system.patchConfig({ payload }))
