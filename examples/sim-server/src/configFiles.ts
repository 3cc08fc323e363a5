/**
 * Reading the server's own files: `serverDZ.cfg` (`key = value;`, strings
 * quoted, `//` and block comments, nested `class X { ... };`, arrays
 * `key[] = {...};`; a missing `;` is an error, as in DayZ), the BattlEye
 * config (`Key value` lines), `ban.txt` and `priority.txt`.
 */
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { dayzId, toSteam64 } from "./ids.js"

export class ConfigError extends Error {}

export type CfgValue = string | number | ReadonlyArray<CfgValue>

export interface CfgClass {
  readonly values: ReadonlyMap<string, CfgValue>
  readonly classes: ReadonlyMap<string, CfgClass>
}

type Token = { readonly kind: "word" | "string" | "number" | "punct"; readonly text: string; readonly line: number }

const tokenize = (source: string): Array<Token> => {
  const tokens: Array<Token> = []
  let i = 0
  let line = 1
  while (i < source.length) {
    const c = source[i]!
    if (c === "\n") {
      line++
      i++
    } else if (/\s/.test(c)) {
      i++
    } else if (c === "/" && source[i + 1] === "/") {
      while (i < source.length && source[i] !== "\n") i++
    } else if (c === "/" && source[i + 1] === "*") {
      const end = source.indexOf("*/", i + 2)
      const stop = end < 0 ? source.length : end + 2
      for (let k = i; k < stop; k++) if (source[k] === "\n") line++
      i = stop
    } else if (c === '"') {
      let text = ""
      i++
      while (i < source.length) {
        if (source[i] === '"' && source[i + 1] === '"') {
          text += '"'
          i += 2
        } else if (source[i] === '"') {
          i++
          break
        } else {
          if (source[i] === "\n") throw new ConfigError(`line ${line}: unterminated string`)
          text += source[i++]
        }
      }
      tokens.push({ kind: "string", text, line })
    } else if ("={};,[]".includes(c)) {
      tokens.push({ kind: "punct", text: c, line })
      i++
    } else {
      let text = ""
      while (i < source.length && !/[\s={};,[\]"]/.test(source[i]!) && !(source[i] === "/" && source[i + 1] === "/")) {
        text += source[i++]
      }
      tokens.push({ kind: /^-?\d+(\.\d+)?$/.test(text) ? "number" : "word", text, line })
    }
  }
  return tokens
}

/** Parses a DayZ `.cfg` file; throws `ConfigError` naming the line on a syntax error. */
export const parseCfg = (source: string): CfgClass => {
  const tokens = tokenize(source)
  let pos = 0
  const peek = () => tokens[pos]
  const expect = (text: string, after: Token | undefined) => {
    const token = tokens[pos]
    if (token === undefined || token.text !== text || token.kind !== "punct") {
      const line = token?.line ?? after?.line ?? 0
      throw new ConfigError(`line ${after?.line ?? line}: expected '${text}'${token === undefined ? " at end of file" : ` before '${token.text}'`}`)
    }
    pos++
    return token
  }
  const value = (): CfgValue => {
    const token = tokens[pos++]
    if (token === undefined) throw new ConfigError("unexpected end of file")
    if (token.kind === "punct" && token.text === "{") {
      const items: Array<CfgValue> = []
      while (peek()?.text !== "}") {
        items.push(value())
        if (peek()?.text === ",") pos++
        else break
      }
      expect("}", token)
      return items
    }
    if (token.kind === "number") return Number(token.text)
    if (token.kind === "string" || token.kind === "word") return token.text
    throw new ConfigError(`line ${token.line}: unexpected '${token.text}'`)
  }
  const body = (closing: boolean): CfgClass => {
    const values = new Map<string, CfgValue>()
    const classes = new Map<string, CfgClass>()
    for (;;) {
      const token = peek()
      if (token === undefined) {
        if (closing) throw new ConfigError("missing '}' at end of file")
        return { values, classes }
      }
      if (token.kind === "punct" && token.text === "}") {
        if (!closing) throw new ConfigError(`line ${token.line}: unexpected '}'`)
        return { values, classes }
      }
      if (token.kind === "punct" && token.text === ";") {
        pos++
        continue
      }
      if (token.kind !== "word") throw new ConfigError(`line ${token.line}: unexpected '${token.text}'`)
      pos++
      if (token.text === "class") {
        const name = tokens[pos++]
        if (name === undefined || name.kind !== "word") throw new ConfigError(`line ${token.line}: class needs a name`)
        const open = expect("{", name)
        const inner = body(true)
        const close = expect("}", open)
        expect(";", close)
        classes.set(name.text, inner)
        continue
      }
      let key = token.text
      if (peek()?.text === "[") {
        pos++
        expect("]", token)
        key += "[]"
      }
      expect("=", token)
      const start = pos
      const v = value()
      expect(";", tokens[start] ?? token)
      values.set(key, v)
    }
  }
  return body(false)
}

export interface ServerConfig {
  readonly hostname: string
  readonly password: string
  readonly passwordAdmin: string
  readonly maxPlayers: number
  readonly instanceId: number
  readonly template: string
  readonly enableWhitelist: boolean
  readonly disableBanlist: boolean
  readonly disablePrioritylist: boolean
  readonly verifySignatures: number
  readonly forceSameBuild: boolean
  readonly storageAutoFix: boolean
}

const asString = (v: CfgValue | undefined, fallback: string) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : fallback)
const asNumber = (v: CfgValue | undefined, fallback: number) =>
  typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v)) ? Number(v) : fallback

export const readServerConfig = (path: string): ServerConfig => {
  const cfg = parseCfg(Fs.readFileSync(path, "utf8"))
  const v = (key: string) => cfg.values.get(key)
  const missions = cfg.classes.get("Missions")
  const mission = missions === undefined ? undefined : [...missions.classes.values()][0]
  return {
    hostname: asString(v("hostname"), "DayZ Server"),
    password: asString(v("password"), ""),
    passwordAdmin: asString(v("passwordAdmin"), ""),
    maxPlayers: asNumber(v("maxPlayers"), 60),
    instanceId: asNumber(v("instanceId"), 1),
    template: asString(mission?.values.get("template"), "dayzOffline.chernarusplus"),
    enableWhitelist: asNumber(v("enableWhitelist"), 0) === 1,
    disableBanlist: asNumber(v("disableBanlist"), 0) === 1,
    disablePrioritylist: asNumber(v("disablePrioritylist"), 0) === 1,
    verifySignatures: asNumber(v("verifySignatures"), 2),
    forceSameBuild: asNumber(v("forceSameBuild"), 1) === 1,
    storageAutoFix: asNumber(v("storageAutoFix"), 1) === 1
  }
}

export interface BattlEyeConfig {
  readonly file: string
  readonly password: string | undefined
  readonly port: number | undefined
  readonly ip: string | undefined
  readonly restrictRcon: boolean
}

/** `BEServer_x64.cfg` / `beserver_x64.cfg` (any case), else the newest `*_active_*.cfg`; undefined when RCon is not configured. */
export const findBattlEyeConfig = (dir: string): string | undefined => {
  let entries: Array<string>
  try {
    entries = Fs.readdirSync(dir)
  } catch {
    return undefined
  }
  const base = entries.find((e) => e.toLowerCase() === "beserver_x64.cfg")
  if (base !== undefined) return NodePath.join(dir, base)
  const active = entries
    .filter((e) => /^beserver_x64_active_.*\.cfg$/i.test(e))
    .map((e) => NodePath.join(dir, e))
    .sort((a, b) => Fs.statSync(b).mtimeMs - Fs.statSync(a).mtimeMs)
  return active[0]
}

export const readBattlEyeConfig = (file: string): BattlEyeConfig => {
  const values = new Map<string, string>()
  for (const line of Fs.readFileSync(file, "utf8").split(/\r?\n/)) {
    const match = /^\s*([A-Za-z]+)\s+(.*?)\s*$/.exec(line)
    if (match !== null) values.set(match[1]!.toLowerCase(), match[2]!)
  }
  const port = values.get("rconport")
  return {
    file,
    password: values.get("rconpassword"),
    port: port === undefined ? undefined : Number(port),
    ip: values.get("rconip"),
    restrictRcon: values.get("restrictrcon") === "1"
  }
}

/** Ids in `ban.txt`/`whitelist.txt`: one per line (Steam64 or DayZ ID), `//` comments; normalised to Steam64 and DayZ ID sets. */
export interface IdList {
  readonly steam64: ReadonlySet<string>
  readonly dayzIds: ReadonlySet<string>
}

export const emptyIdList: IdList = { steam64: new Set(), dayzIds: new Set() }

export const parseIdList = (text: string): IdList => {
  const steam64 = new Set<string>()
  const dayzIds = new Set<string>()
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\/\/.*$/, "").trim()
    if (line === "") continue
    const token = line.split(/\s+/)[0]!
    const id = toSteam64(token)
    if (id !== undefined) steam64.add(id)
    else if (/^[A-Za-z0-9_-]{43}=$/.test(token)) dayzIds.add(token)
  }
  return { steam64, dayzIds }
}

export const idListHas = (list: IdList, steam64: string): boolean => list.steam64.has(steam64) || list.dayzIds.has(dayzId(steam64))

/** `priority.txt`: Steam64 ids separated by `;` (newlines tolerated). */
export const parsePriority = (text: string): ReadonlySet<string> =>
  new Set(
    text
      .replace(/\/\/.*$/gm, "")
      .split(/[;\s]+/)
      .map((s) => s.trim())
      .filter((s) => s !== "")
      .map((s) => toSteam64(s) ?? s)
  )

/** Re-reads a file only when its mtime or size changed. */
export class WatchedFile<A> {
  private stamp = ""
  private value: A

  constructor(
    private readonly path: string,
    private readonly parse: (text: string) => A,
    private readonly empty: A
  ) {
    this.value = empty
  }

  get current(): A {
    let stamp: string
    try {
      const stat = Fs.statSync(this.path)
      stamp = `${stat.mtimeMs}:${stat.size}`
    } catch {
      this.stamp = ""
      this.value = this.empty
      return this.value
    }
    if (stamp !== this.stamp) {
      this.stamp = stamp
      try {
        this.value = this.parse(Fs.readFileSync(this.path, "utf8"))
      } catch {
        this.value = this.empty
      }
    }
    return this.value
  }
}
