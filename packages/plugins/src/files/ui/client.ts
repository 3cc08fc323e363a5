/**
 * The files plugin's API for its page (`apiFor`: built when the page's chunk
 * loads, not in the first load), and what the page shows about paths.
 */
import { apiFor } from "@dashboard/api/client.js"
import type { CodeLanguage } from "@dashboard/ui/CodeEditor.js"
import { FilesApi } from "../contract/Api.js"

export const filesApi = apiFor(FilesApi)

/** The last name of a path (`/` or `\` between names). */
export const baseName = (path: string): string => path.split(/[/\\]/).filter(Boolean).pop() ?? path

/** The folders from the install folder down to `folder`: `[{name, path}]`, the install folder first (path ""). */
export const crumbsOf = (folder: string): ReadonlyArray<{ readonly name: string; readonly path: string }> => {
  const names = folder.split(/[/\\]/).filter(Boolean)
  return [{ name: "Install folder", path: "" }, ...names.map((name, i) => ({ name, path: names.slice(0, i + 1).join("/") }))]
}

/** The folder a file is in ("" for the install folder). */
export const folderOf = (path: string): string => path.split(/[/\\]/).filter(Boolean).slice(0, -1).join("/")

/** How the editor colours a file, by its extension. */
export const languageOf = (path: string): CodeLanguage => {
  const name = baseName(path).toLowerCase()
  const dot = name.lastIndexOf(".")
  const extension = dot <= 0 ? "" : name.slice(dot + 1)
  if (["xml", "xsd", "map"].includes(extension)) return "xml"
  if (extension === "json") return "json"
  if (["cfg", "c", "h", "cpp", "hpp", "ext", "sqm"].includes(extension)) return "cfg"
  return "text"
}
