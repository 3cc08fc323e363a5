/**
 * The BattlEye `bans` reply: a `GUID Bans:` and an `IP Bans:` section, each
 * with a header `[#] [GUID|IP Address] [Minutes left] [Reason]`, a rule, and
 * lines `<#> <id> <minutes left> <reason>` where minutes left is a number,
 * `perm`, or `-`. The `#` is what `removeBan <#>` takes.
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

export const parseBans = (reply: string): RconBanList => {
  const guidBans: Array<RconBan> = []
  const ipBans: Array<RconBan> = []
  let section: "guid" | "ip" | undefined
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
    const match = BAN_LINE.exec(line)
    if (match === null) continue
    const left = match[3]!.toLowerCase()
    const ban = new RconBan({
      index: Number(match[1]),
      kind: section,
      id: section === "guid" ? match[2]!.toLowerCase() : match[2]!,
      minutesLeft: left === "perm" ? "perm" : left === "-" ? null : Number(left),
      reason: (match[4] ?? "").trim()
    })
    ;(section === "guid" ? guidBans : ipBans).push(ban)
  }
  return { guidBans, ipBans }
}
