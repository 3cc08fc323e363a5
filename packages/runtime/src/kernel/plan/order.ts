/**
 * Which plugins load, and in what order: ids are unique, every dependency is
 * loaded, every extension point a plugin requires has a provider, and no
 * plugins depend on each other in a cycle. Each plugin comes after the
 * plugins it depends on and after the providers of what it requires, so
 * their layers can be built one after another.
 */
import * as Either from "effect/Either"
import type { AnyPlugin } from "../Plugin.js"
import { StartupError } from "../StartupError.js"
import { fail } from "./failure.js"

/** Who provides the runtime's own extension points, for the start-up error when none is loaded. */
const SERVICE_PROVIDERS: Readonly<Record<string, string>> = {
  "@garrison/runtime/AuditTrail": 'the "audit" plugin (audit rows would be lost)'
}

/** The plugins in load order, or why they cannot load. */
export const orderPlugins = (plugins: ReadonlyArray<AnyPlugin>): Either.Either<ReadonlyArray<AnyPlugin>, StartupError> =>
  Either.gen(function* () {
    const byId = yield* indexById(plugins)
    yield* checkDependencies(plugins, byId)
    const builtAfter = yield* providersFirst(plugins)
    return yield* topologicalOrder(plugins, byId, (plugin) => builtAfter.get(plugin.id) ?? plugin.dependsOn)
  })

const indexById = (plugins: ReadonlyArray<AnyPlugin>): Either.Either<ReadonlyMap<string, AnyPlugin>, StartupError> => {
  const byId = new Map<string, AnyPlugin>()
  for (const plugin of plugins) {
    if (byId.has(plugin.id)) {
      return fail("duplicate-plugin", `two plugins use the id "${plugin.id}"; plugin ids must be unique`)
    }
    byId.set(plugin.id, plugin)
  }
  return Either.right(byId)
}

const checkDependencies = (plugins: ReadonlyArray<AnyPlugin>, byId: ReadonlyMap<string, AnyPlugin>): Either.Either<void, StartupError> => {
  for (const plugin of plugins) {
    for (const dep of plugin.dependsOn) {
      if (!byId.has(dep)) {
        return fail("missing-dependency", `plugin "${plugin.id}" depends on "${dep}", which is not loaded`)
      }
    }
  }
  return Either.void
}

/** Extension points: each plugin that requires one is built after its providers (there must be one); one it uses, after any. */
const providersFirst = (plugins: ReadonlyArray<AnyPlugin>): Either.Either<ReadonlyMap<string, ReadonlyArray<string>>, StartupError> => {
  const providers = new Map<string, Array<string>>()
  for (const plugin of plugins) for (const service of plugin.provides) providers.set(service.key, [...(providers.get(service.key) ?? []), plugin.id])
  const builtAfter = new Map<string, Array<string>>()
  for (const plugin of plugins) {
    const after = [...plugin.dependsOn]
    for (const service of plugin.requires) {
      const from = (providers.get(service.key) ?? []).filter((id) => id !== plugin.id)
      if (from.length === 0) {
        const hint = SERVICE_PROVIDERS[service.key]
        return fail(
          "missing-dependency",
          `plugin "${plugin.id}" requires ${service.key}, which no loaded plugin provides${hint === undefined ? "" : `: load ${hint}`}`
        )
      }
      after.push(...from)
    }
    // Optional extension points: after their providers when any is loaded.
    for (const service of plugin.uses) after.push(...(providers.get(service.key) ?? []).filter((id) => id !== plugin.id))
    builtAfter.set(plugin.id, after)
  }
  return Either.right(builtAfter)
}

const topologicalOrder = (
  plugins: ReadonlyArray<AnyPlugin>,
  byId: ReadonlyMap<string, AnyPlugin>,
  builtAfter: (plugin: AnyPlugin) => ReadonlyArray<string>
): Either.Either<ReadonlyArray<AnyPlugin>, StartupError> => {
  const ordered: Array<AnyPlugin> = []
  const state = new Map<string, "visiting" | "done">()
  const visit = (plugin: AnyPlugin, path: ReadonlyArray<string>): StartupError | undefined => {
    const seen = state.get(plugin.id)
    if (seen === "done") return undefined
    if (seen === "visiting") {
      return new StartupError({
        reason: "dependency-cycle",
        message: `plugins depend on each other in a cycle: ${[...path, plugin.id].join(" -> ")}`
      })
    }
    state.set(plugin.id, "visiting")
    for (const dep of builtAfter(plugin)) {
      const error = visit(byId.get(dep)!, [...path, plugin.id])
      if (error) return error
    }
    state.set(plugin.id, "done")
    ordered.push(plugin)
    return undefined
  }
  for (const plugin of plugins) {
    const error = visit(plugin, [])
    if (error) return Either.left(error)
  }
  return Either.right(ordered)
}
