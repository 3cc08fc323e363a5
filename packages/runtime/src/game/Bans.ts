/**
 * The BattlEye `bans` reply: a `GUID Bans:` and an `IP Bans:` section, each
 * with a header `[#] [GUID|IP Address] [Minutes left] [Reason]`, a rule, and
 * lines `<#> <id> <minutes left> <reason>` where minutes left is a number,
 * `perm`, or `-`. The `#` is what `removeBan <#>` takes; it runs on from the
 * GUID section into the IP one.
 *
 * A line whose number is glued to its id (`100<guid>`, `218108.231.105.146`:
 * a fixed-width number column with no space after it, as a simulator printed
 * from ban 100 on) is read too: a GUID is exactly 32 hex characters, and an
 * IP address is split where the number is the one that follows the line before.
 */
import * as Schema from "effect/Schema"

export class RconBan extends Schema.Class<RconBan>("RconBan")({
  /** The number `removeBan` takes. */
  index: Schema.Int,
  kind: Schema.Literal("guid", "ip"),
  /** A BattlEye GUID or an IP address. */
  id: Schema.String,
  /** Minutes left; `"perm"` for a permanent ban; `null` when the server shows `-`. */
  minutesLeft: Schema.Union(Schema.Int, Schema.Literal("perm"), Schema.Null),
  reason: Schema.String
}) {}

export interface RconBanList {
  readonly guidBans: ReadonlyArray<RconBan>
  readonly ipBans: ReadonlyArray<RconBan>
}

const BAN_LINE = /^(\d+)\s+(\S+)\s+(perm|-|-?\d+)(?:\s+(.*))?$/i
const GLUED_GUID = /^(\d+?)([0-9a-f]{32})\s+(perm|-|-?\d+)(?:\s+(.*))?$/i
const GLUED_IP = /^(\d+)\.(\d{1,3}\.\d{1,3}\.\d{1,3})\s+(perm|-|-?\d+)(?:\s+(.*))?$/i

/** One ban line's fields, as printed. */
interface BanFields {
  readonly index: number
  readonly id: string
  readonly left: string
  readonly reason: string
}

const fields = (match: RegExpExecArray | null): BanFields | undefined =>
  match === null ? undefined : { index: Number(match[1]), id: match[2]!, left: match[3]!, reason: match[4] ?? "" }

/** `<#><ip>` with no space: the split whose number is `expected` (without one, the shortest valid first octet). */
const gluedIp = (line: string, expected: number | undefined): BanFields | undefined => {
  const match = GLUED_IP.exec(line)
  if (match === null) return undefined
  const digits = match[1]!
  const splits: Array<BanFields> = []
  for (let octet = 1; octet <= 3 && octet < digits.length; octet++) {
    const first = digits.slice(digits.length - octet)
    if (Number(first) > 255 || (first.length > 1 && first.startsWith("0"))) continue
    splits.push({ index: Number(digits.slice(0, -octet)), id: `${first}.${match[2]}`, left: match[3]!, reason: match[4] ?? "" })
  }
  return expected === undefined ? splits[0] : splits.find((split) => split.index === expected)
}

export const parseBans = (reply: string): RconBanList => {
  const guidBans: Array<RconBan> = []
  const ipBans: Array<RconBan> = []
  let section: "guid" | "ip" | undefined
  // The number the next ban line should carry (they count up across both sections).
  let next: number | undefined
  for (const raw of reply.split(/\r?\n/)) {
    const line = raw.trim()
    if (/^GUID Bans:?$/i.test(line)) {
      section = "guid"
      continue
    }
    if (/^IP Bans:?$/i.test(line)) {
      section = "ip"
      continue
    }
    if (section === undefined) continue
    const found = fields(BAN_LINE.exec(line)) ?? (section === "guid" ? fields(GLUED_GUID.exec(line)) : gluedIp(line, next))
    if (found === undefined) continue
    const left = found.left.toLowerCase()
    const ban = new RconBan({
      index: found.index,
      kind: section,
      id: section === "guid" ? found.id.toLowerCase() : found.id,
      minutesLeft: left === "perm" ? "perm" : left === "-" ? null : Number(left),
      reason: found.reason.trim()
    })
    next = ban.index + 1
    ;(section === "guid" ? guidBans : ipBans).push(ban)
  }
  return { guidBans, ipBans }
}
