import * as Context from "effect/Context"
import type { PluginPlan } from "./PluginPlan.js"

/** What was loaded, for health reports, the HTTP host and OpenAPI. */
export interface PluginRegistryShape {
  readonly plan: PluginPlan
  /** Epoch milliseconds when the runtime finished starting. */
  readonly startedAt: number
  readonly version: string
}

export class PluginRegistry extends Context.Tag("@garrison/runtime/PluginRegistry")<
  PluginRegistry,
  PluginRegistryShape
>() {}
