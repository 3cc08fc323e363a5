/**
 * @garrison/plugins: every built-in feature, one folder each.
 */
import type { AnyPlugin } from "@garrison/runtime"
import { HealthPlugin } from "./health/index.js"

export * from "./health/index.js"

/** The plugins the controller loads by default, in no particular order (the host orders them). */
export const defaultPlugins: ReadonlyArray<AnyPlugin> = [HealthPlugin]
