/**
 * `serverDZ.cfg` read and edited in place. The file is kept as its text:
 * parsing finds where each setting's value lies (`key = value;` at the top
 * level, `template = "...";` inside `class Missions { class DayZ { ... }; };`),
 * and an edit replaces only those characters, so comments, blank lines,
 * order, spacing, unknown keys and line endings stay as they were, and a
 * file nobody changed prints back byte for byte.
 *
 * The grammar is DayZ's config syntax: `//` and `/* *\/` comments, strings
 * in double quotes (a quote inside doubled: `""`), numbers, arrays
 * `key[] = {"a", "b"};`, nested `class Name { ... };` blocks. A statement
 * without its `;` is what breaks DayZ's own parser: it is reported with its
 * line, and such a file is not edited.
 */

export type ConfigValue = string | number | ReadonlyArray<string | number>

export interface ConfigSetting {
  readonly key: string
  /** `key[] = {...}` */
  readonly array: boolean
  /** The class blocks around it (`["Missions", "DayZ"]` for the mission template); empty at the top level. */
  readonly path: ReadonlyArray<string>
  /** The value's text as written (`"My server"`, `60`, `{"a", "b"}`). */
  readonly raw: string
  readonly value: ConfigValue
  /** Where the value's text starts and ends in the file. */
  readonly start: number
  readonly end: number
  /** 1-based line of the key. */
  readonly line: number
}

export interface ParsedConfig {
  readonly text: string
  readonly settings: ReadonlyArray<ConfigSetting>
  /** Why DayZ would not read the file (a missing `;`, an unclosed string or block), with the line. */
  readonly problems: ReadonlyArray<{ readonly line: number; readonly message: string }>
}

const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\r" || c === "\n" || c === "\uFEFF"
const isWordStart = (c: string | undefined) => c !== undefined && /[A-Za-z_]/.test(c)
const isWord = (c: string | undefined) => c !== undefined && /[A-Za-z0-9_]/.test(c)

/** The value a setting's text means (a string unquoted, a number, an array's items). */
export const readConfigValue = (raw: string): ConfigValue => {
  const text = raw.trim()
  if (text.startsWith("{")) {
    const items: Array<string | number> = []
    let i = 1
    while (i < text.length) {
      const c = text[i]
      if (c === "}") break
      if (isSpace(c) || c === ",") {
        i++
        continue
      }
      if (c === '"') {
        const [value, next] = readString(text, i)
        items.push(value)
        i = next
        continue
      }
      let j = i
      while (j < text.length && text[j] !== "," && text[j] !== "}") j++
      const bare = text.slice(i, j).trim()
      items.push(bare !== "" && Number.isFinite(Number(bare)) ? Number(bare) : bare)
      i = j
    }
    return items
  }
  if (text.startsWith('"')) return readString(text, 0)[0]
  return text !== "" && Number.isFinite(Number(text)) ? Number(text) : text
}

/** A quoted string from `at` (its opening quote): its value, where it ends, and whether its closing quote was there. */
const readString = (text: string, at: number): readonly [string, number, boolean] => {
  let value = ""
  let i = at + 1
  while (i < text.length) {
    if (text[i] === '"') {
      if (text[i + 1] === '"') {
        value += '"'
        i += 2
        continue
      }
      return [value, i + 1, true]
    }
    value += text[i]
    i++
  }
  return [value, i, false]
}

/** A value as DayZ's syntax writes it. Strings must be one line (checked by the callers' schemas). */
export const writeConfigValue = (value: ConfigValue): string => {
  if (Array.isArray(value)) return `{${(value as ReadonlyArray<string | number>).map((item) => writeConfigValue(item)).join(", ")}}`
  if (typeof value === "number") return String(value)
  return `"${(value as string).replaceAll('"', '""')}"`
}

export const parseServerConfig = (text: string): ParsedConfig => {
  const settings: Array<ConfigSetting> = []
  const problems: Array<{ line: number; message: string }> = []
  const path: Array<string> = []
  let i = 0
  const lineAt = (offset: number) => {
    let line = 1
    for (let k = 0; k < offset && k < text.length; k++) if (text[k] === "\n") line++
    return line
  }
  const skipBlank = () => {
    for (;;) {
      while (i < text.length && isSpace(text[i])) i++
      if (text.startsWith("//", i)) {
        while (i < text.length && text[i] !== "\n") i++
        continue
      }
      if (text.startsWith("/*", i)) {
        const close = text.indexOf("*/", i + 2)
        if (close < 0) {
          problems.push({ line: lineAt(i), message: "a /* comment is never closed" })
          i = text.length
          return
        }
        i = close + 2
        continue
      }
      return
    }
  }
  const word = () => {
    const from = i
    while (isWord(text[i])) i++
    return text.slice(from, i)
  }

  while (i < text.length) {
    skipBlank()
    if (i >= text.length) break
    const c = text[i]
    if (c === "}") {
      if (path.length === 0) problems.push({ line: lineAt(i), message: "a } closes no class" })
      else path.pop()
      i++
      skipBlank()
      if (text[i] === ";") i++
      continue
    }
    if (!isWordStart(c)) {
      problems.push({ line: lineAt(i), message: `unexpected "${c}"` })
      // Resynchronise at the next statement.
      while (i < text.length && text[i] !== ";" && text[i] !== "\n") i++
      i++
      continue
    }
    const keyAt = i
    const key = word()
    skipBlank()
    if (key === "class" && isWordStart(text[i])) {
      const name = word()
      skipBlank()
      if (text[i] === "{") {
        path.push(name)
        i++
        continue
      }
      // `class Name;` (a forward declaration) or `class Name: Base {`.
      if (text[i] === ":") {
        i++
        skipBlank()
        word()
        skipBlank()
        if (text[i] === "{") {
          path.push(name)
          i++
          continue
        }
      }
      if (text[i] === ";") {
        i++
        continue
      }
      problems.push({ line: lineAt(keyAt), message: `class ${name} has no { ... }` })
      continue
    }
    let array = false
    if (text.startsWith("[]", i)) {
      array = true
      i += 2
      skipBlank()
    }
    if (text[i] !== "=") {
      problems.push({ line: lineAt(keyAt), message: `${key}: expected "=" after the name` })
      while (i < text.length && text[i] !== ";" && text[i] !== "\n") i++
      i++
      continue
    }
    i++
    skipBlank()
    const start = i
    // The value runs to the `;` outside strings and braces.
    let depth = 0
    let closed = false
    while (i < text.length) {
      const v = text[i]
      if (v === '"') {
        const [, next, closedString] = readString(text, i)
        if (!closedString) problems.push({ line: lineAt(i), message: `${key}: a string is never closed` })
        i = next
        continue
      }
      if (v === "{") depth++
      else if (v === "}") depth--
      else if (v === ";" && depth <= 0) {
        closed = true
        break
      } else if (v === "\n" && depth <= 0) break
      i++
    }
    let end = i
    while (end > start && isSpace(text[end - 1])) end--
    if (!closed) {
      problems.push({ line: lineAt(keyAt), message: `${key}: the line has no ";" at its end` })
      continue
    }
    const raw = text.slice(start, end)
    settings.push({ key, array, path: [...path], raw, value: readConfigValue(raw), start, end, line: lineAt(keyAt) })
    i++
  }
  if (path.length > 0) problems.push({ line: lineAt(text.length), message: `class ${path.join(" > ")} is never closed` })
  return { text, settings, problems }
}

/** The setting `key` at `path` (the top level by default), compared case-insensitively as DayZ does. */
export const findSetting = (config: ParsedConfig, key: string, path: ReadonlyArray<string> = []): ConfigSetting | undefined =>
  config.settings.find(
    (s) => s.key.toLowerCase() === key.toLowerCase() && s.path.length === path.length && s.path.every((p, k) => p.toLowerCase() === path[k]!.toLowerCase())
  )

export interface ConfigEdit {
  readonly key: string
  readonly value: ConfigValue
  /** Where it lives; top level by default. */
  readonly path?: ReadonlyArray<string>
}

/**
 * The text with each edit applied: a setting that exists gets its value's
 * characters replaced (nothing else on its line changes); a top-level one
 * that does not is added as `key = value;` before the first class block (or
 * at the end), in the file's own line ending. An edit of a setting inside a
 * class that is not there is refused (the caller says so).
 */
export const editServerConfig = (config: ParsedConfig, edits: ReadonlyArray<ConfigEdit>): string => {
  const replacements: Array<{ start: number; end: number; text: string }> = []
  const added: Array<string> = []
  for (const edit of edits) {
    const found = findSetting(config, edit.key, edit.path)
    const written = writeConfigValue(edit.value)
    if (found !== undefined) {
      if (found.raw !== written) replacements.push({ start: found.start, end: found.end, text: written })
      continue
    }
    if ((edit.path ?? []).length > 0) throw new Error(`${edit.key} is not in class ${(edit.path ?? []).join(" > ")}`)
    added.push(`${edit.key}${Array.isArray(edit.value) ? "[]" : ""} = ${written};`)
  }
  let text = config.text
  for (const r of replacements.sort((a, b) => b.start - a.start)) text = text.slice(0, r.start) + r.text + text.slice(r.end)
  if (added.length === 0) return text
  const eol = text.includes("\r\n") ? "\r\n" : "\n"
  const classAt = /^[ \t]*class\s+\w+/m.exec(text)
  if (classAt === null) {
    const separator = text === "" || text.endsWith("\n") ? "" : eol
    return text + separator + added.join(eol) + eol
  }
  return text.slice(0, classAt.index) + added.join(eol) + eol + text.slice(classAt.index)
}

export interface MissionFolders {
  /** `dayzOffline.chernarusplus` */
  readonly template: string
  readonly instanceId: number
  /** `mpmissions/<template>`, relative to the install folder. */
  readonly folder: string
  /** `mpmissions/<template>/storage_<instanceId>`: the persistence (characters, world). */
  readonly storage: string
}

/**
 * The mission a configuration names (`class Missions { class DayZ {
 * template = "..."; }; };`, `instanceId`, 1 by default) and its folders;
 * undefined when it names none, or a template that is not a plain folder
 * name.
 */
export const missionOf = (config: ParsedConfig): MissionFolders | undefined => {
  const template = findSetting(config, "template", ["Missions", "DayZ"])?.value
  const instanceId = findSetting(config, "instanceId")?.value ?? 1
  if (typeof template !== "string" || !/^[A-Za-z0-9_.-]+$/.test(template) || template.includes("..")) return undefined
  if (typeof instanceId !== "number" || !Number.isInteger(instanceId) || instanceId < 0) return undefined
  const folder = `mpmissions/${template}`
  return { template, instanceId, folder, storage: `${folder}/storage_${instanceId}` }
}
