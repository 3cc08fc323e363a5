/**
 * A workshop item's `meta.cpp` (`name = "CF";`, `publishedid = 1559212036;`,
 * `timestamp = 5249398398;`) and the folder name a mod gets on a server.
 * The name is the mod author's text: anything that is not a plain folder
 * name (slashes, `..`, control characters, a leading dot) is replaced, so
 * `../../x` becomes `@x`, never a path.
 */

export interface MetaCpp {
  readonly name: string | undefined
  readonly publishedId: string | undefined
  readonly timestamp: string | undefined
}

/** `key = value;` lines, values quoted or bare; anything else is ignored. */
export const parseMetaCpp = (text: string): MetaCpp => {
  const values = new Map<string, string>()
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*?))\s*;/.exec(line)
    if (m) values.set(m[1]!.toLowerCase(), (m[2] ?? m[3] ?? "").trim())
  }
  return { name: values.get("name"), publishedId: values.get("publishedid"), timestamp: values.get("timestamp") }
}

const MAX_NAME = 64

/**
 * `@<name>`: letters, digits, `-`, `_` and `.` kept (a leading dot dropped),
 * everything else `-`, runs squeezed, at most 64 characters; lowercase on
 * Linux (DayZ's Linux server looks mod folders up in lowercase). Falls back
 * to the workshop id when nothing is left.
 */
export const modFolderName = (name: string | undefined, workshopId: string, platform: NodeJS.Platform = process.platform): string => {
  const cleaned = (name ?? "")
    .normalize("NFKC")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[.-]+|[.-]+$/g, "")
    .slice(0, MAX_NAME)
  const base = cleaned === "" || cleaned === "." || cleaned === ".." ? workshopId : cleaned
  return `@${platform === "win32" ? base : base.toLowerCase()}`
}
