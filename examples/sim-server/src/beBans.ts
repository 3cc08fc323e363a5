/**
 * BattlEye's own ban list (`<BEpath>/bans.txt`, separate from the game's
 * `ban.txt`), managed through RCon: `bans`, `ban`, `addBan`, `removeBan`,
 * `loadBans`, `writeBans`. File lines: `<GUID or IP> <expiry unix seconds
 * or -1> <reason>`. Ban numbers run through GUID bans, then IP bans.
 */
import * as Fs from "node:fs"

export interface BeBan {
  readonly id: string
  readonly kind: "guid" | "ip"
  /** Unix seconds, or -1 for permanent. */
  readonly expires: number
  readonly reason: string
}

const isIp = (s: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(s)

export class BattlEyeBans {
  private bans: Array<BeBan> = []

  constructor(private readonly file: string) {}

  load(): number {
    this.bans = []
    let text = ""
    try {
      text = Fs.readFileSync(this.file, "utf8")
    } catch {
      return 0
    }
    for (const line of text.split(/\r?\n/)) {
      const match = /^\s*(\S+)\s+(-?\d+)\s*(.*)$/.exec(line)
      if (match === null) continue
      const id = match[1]!
      const kind = isIp(id) ? "ip" : /^[0-9a-f]{32}$/i.test(id) ? "guid" : undefined
      if (kind === undefined) continue
      this.bans.push({ id: kind === "guid" ? id.toLowerCase() : id, kind, expires: Number(match[2]), reason: match[3]!.trim() })
    }
    return this.bans.length
  }

  write(): void {
    Fs.writeFileSync(this.file, this.ordered().map((b) => `${b.id} ${b.expires} ${b.reason}`.trimEnd() + "\n").join(""))
  }

  /** GUID bans first, then IP bans: the numbering `bans` shows and `removeBan` takes. */
  private ordered(): Array<BeBan> {
    return [...this.bans.filter((b) => b.kind === "guid"), ...this.bans.filter((b) => b.kind === "ip")]
  }

  /** Adds a ban; `minutes` 0 is permanent. Undefined when `id` is neither a GUID nor an IPv4 address. */
  add(id: string, minutes: number, reason: string): BeBan | undefined {
    const kind = isIp(id) ? "ip" : /^[0-9a-f]{32}$/i.test(id) ? "guid" : undefined
    if (kind === undefined) return undefined
    const ban: BeBan = {
      id: kind === "guid" ? id.toLowerCase() : id,
      kind,
      expires: minutes > 0 ? Math.floor(Date.now() / 1000) + minutes * 60 : -1,
      reason
    }
    this.bans = [...this.bans.filter((b) => b.id !== ban.id), ban]
    return ban
  }

  remove(index: number): boolean {
    const target = this.ordered()[index]
    if (target === undefined) return false
    this.bans = this.bans.filter((b) => b !== target)
    return true
  }

  /** The active ban matching a GUID or an IP. */
  match(guid: string, ip: string): BeBan | undefined {
    const now = Date.now() / 1000
    return this.bans.find((b) => (b.expires < 0 || b.expires > now) && (b.id === guid || b.id === ip))
  }

  /**
   * `bans`, `loadBans` and `writeBans`, the commands that need nothing but
   * the list (`ban` and `addBan` also kick, so the server runs those).
   * Undefined for any other command.
   */
  command(word: string): string | undefined {
    switch (word.toLowerCase()) {
      case "bans":
        return this.render()
      case "loadbans":
        this.load()
        return ""
      case "writebans":
        this.write()
        return ""
      default:
        return undefined
    }
  }

  /**
   * The `bans` reply. The number column is padded, then always followed by
   * a space: from ban 100 on a bare `padEnd(3)` glued the number to the id
   * (`100<guid>`, `218108.231.105.146`), which a parser can only guess apart.
   */
  render(): string {
    const now = Date.now() / 1000
    const left = (b: BeBan) => (b.expires < 0 ? "perm" : b.expires <= now ? "-" : String(Math.ceil((b.expires - now) / 60)))
    const ordered = this.ordered()
    const lines: Array<string> = ["GUID Bans:", "[#] [GUID] [Minutes left] [Reason]", "----------------------------------------"]
    ordered.forEach((b, i) => {
      if (b.kind === "guid") lines.push(`${String(i).padEnd(3)} ${b.id} ${left(b)} ${b.reason}`.trimEnd())
    })
    lines.push("", "IP Bans:", "[#] [IP Address] [Minutes left] [Reason]", "----------------------------------------------")
    ordered.forEach((b, i) => {
      if (b.kind === "ip") lines.push(`${String(i).padEnd(3)} ${b.id.padEnd(15)} ${left(b)} ${b.reason}`.trimEnd())
    })
    return lines.join("\n")
  }
}
