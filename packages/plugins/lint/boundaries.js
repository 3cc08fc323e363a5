/**
 * ESLint rule `garrison/plugin-boundaries`: a plugin's sources may use
 * another plugin only through that plugin's public face, its `index.ts`
 * (what `@garrison/plugins/<id>` exports). Reaching into another plugin's
 * `internal/`, `routes/` or services couples the two so that neither can
 * change alone; community plugins get the same boundary from the package's
 * `exports`, which list only the faces.
 *
 * The import is resolved against the importing file, so every spelling
 * (`../players/internal/x.js`, `../../players/routes.js`, ...) is caught.
 */
import * as NodePath from "node:path"

const pluginsSource = NodePath.resolve(NodePath.dirname(new URL(import.meta.url).pathname), "..", "src")

/** `{plugin, rest}` for a path inside packages/plugins/src/<plugin>/..., else undefined. */
const locate = (file) => {
  const relative = NodePath.relative(pluginsSource, file)
  if (relative.startsWith("..") || NodePath.isAbsolute(relative)) return undefined
  const [plugin, ...rest] = relative.split(NodePath.sep)
  return rest.length === 0 ? undefined : { plugin, rest: rest.join("/") }
}

const PUBLIC_FACE = /^index\.(js|ts)$/

export const pluginBoundaries = {
  meta: {
    type: "problem",
    docs: { description: "a plugin uses another plugin only through its index (public face)" },
    schema: [],
    messages: {
      internal:
        'plugin "{{from}}" reaches into plugin "{{to}}" ({{rest}}): import from "{{face}}" instead, and export what is needed there'
    }
  },
  create(context) {
    const from = locate(context.filename)
    if (from === undefined) return {}
    const check = (node) => {
      const source = node.source?.value
      if (typeof source !== "string" || !source.startsWith(".")) return
      const target = locate(NodePath.resolve(NodePath.dirname(context.filename), source))
      if (target === undefined || target.plugin === from.plugin || PUBLIC_FACE.test(target.rest)) return
      const face = NodePath.relative(NodePath.dirname(context.filename), NodePath.join(pluginsSource, target.plugin, "index.js"))
      context.report({ node: node.source, messageId: "internal", data: { from: from.plugin, to: target.plugin, rest: target.rest, face } })
    }
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check }
  }
}
