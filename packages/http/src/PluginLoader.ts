/**
 * Loads the extra plugins named in `PLUGINS`: a path (relative to the
 * working directory) or a package name. The module's default export, or its
 * `plugin`/`plugins` export, is a plugin or a list of them.
 */
import { type AnyPlugin, errorMessage, StartupError } from "@garrison/runtime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { createRequire } from "node:module"
import * as NodePath from "node:path"
import { pathToFileURL } from "node:url"

const isPlugin = (value: unknown): value is AnyPlugin =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { id?: unknown }).id === "string" &&
  Array.isArray((value as { dependsOn?: unknown }).dependsOn) &&
  Array.isArray((value as { migrations?: unknown }).migrations)

const resolveSpecifier = (specifier: string, cwd: string): string => {
  const require = createRequire(NodePath.join(cwd, "noop.js"))
  const local = specifier.startsWith(".") || NodePath.isAbsolute(specifier)
  return pathToFileURL(require.resolve(local ? NodePath.resolve(cwd, specifier) : specifier)).href
}

export const loadPlugins = (specifiers: ReadonlyArray<string>, cwd = process.cwd()) =>
  Effect.forEach(specifiers, (specifier) =>
    Effect.tryPromise({
      try: () => import(resolveSpecifier(specifier, cwd)) as Promise<Record<string, unknown>>,
      catch: (cause) =>
        new StartupError({
          reason: "plugin-load",
          message: `cannot load plugin module "${specifier}": ${errorMessage(cause)}`
        })
    }).pipe(
      // Its import cost at start-up (the built-in plugins are evaluated with the bundle, as one).
      Effect.timed,
      Effect.tap(([took]) => Effect.logDebug(`plugin module "${specifier}" imported in ${Math.round(Duration.toMillis(took))} ms`)),
      Effect.flatMap(([, module]) => {
        const exported = module.default ?? module.plugin ?? module.plugins
        const list = Array.isArray(exported) ? exported : [exported]
        return list.length > 0 && list.every(isPlugin)
          ? Effect.succeed(list as ReadonlyArray<AnyPlugin>)
          : Effect.fail(
              new StartupError({
                reason: "plugin-load",
                message: `module "${specifier}" does not export a plugin (default export, "plugin" or "plugins" built with Plugin.make)`
              })
            )
      })
    )
  ).pipe(Effect.map((lists) => lists.flat()))
