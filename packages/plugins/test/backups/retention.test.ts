/** Backup retention: which backups a policy keeps, and why; plain functions over epoch milliseconds. */
import { describe, expect, it } from "vitest"
import {
  BACKUP_TYPES,
  type BackupType,
  bucketOf,
  isoWeekOf,
  judgeRetention,
  type RetainedBackup,
  type RetentionPolicy,
  type RetentionVerdict,
  type Tier,
  TIERS,
  tiersOf
} from "../../src/backups/internal/retention.js"

const ms = (iso: string) => Date.parse(iso)
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

const backup = (filename: string, type: BackupType, iso: string): RetainedBackup => ({ filename, type, createdAt: ms(iso) })

const NO_TIERS: Record<Tier, number> = { hourly: 0, daily: 0, weekly: 0, monthly: 0 }
const ONE_EACH: Record<BackupType, number> = { manual: 1, scheduled: 1, "pre-restore": 1, "pre-wipe": 1, "pre-update": 1 }
const policy = (keepPerType: Partial<Record<BackupType, number>> = {}, tiers: Partial<Record<Tier, number>> = {}): RetentionPolicy => ({
  keepPerType: { ...ONE_EACH, ...keepPerType },
  tiers: { ...NO_TIERS, ...tiers }
})

const kept = (verdict: RetentionVerdict) => verdict.keep.map((entry) => entry.filename)
const entry = (verdict: RetentionVerdict, filename: string) => verdict.keep.find((kept) => kept.filename === filename)

/** A tiny seeded generator (32-bit LCG, Numerical Recipes constants): the same seed, the same numbers. */
const lcg = (seed: number) => {
  let state = seed >>> 0
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
  return { next, int: (below: number) => Math.floor(next() * below) }
}

const shuffled = <A>(items: ReadonlyArray<A>, seed: number): Array<A> => {
  const random = lcg(seed)
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.int(i + 1)
    ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
  }
  return copy
}

/**
 * The buckets again, computed another way than the module does: ISO strings
 * for hours, days and months, and the date of the week's Monday for weeks
 * (a Monday-to-Sunday week is exactly one ISO week).
 */
const oracleBucket = (tier: Tier, createdAt: number): string => {
  const iso = new Date(createdAt).toISOString()
  switch (tier) {
    case "hourly":
      return iso.slice(0, 13)
    case "daily":
      return iso.slice(0, 10)
    case "monthly":
      return iso.slice(0, 7)
    case "weekly": {
      const sinceMonday = (new Date(createdAt).getUTCDay() + 6) % 7
      return new Date(createdAt - sinceMonday * DAY).toISOString().slice(0, 10)
    }
  }
}

/** Newest first, ties by filename descending. */
const byNewest = (a: RetainedBackup, b: RetainedBackup) => b.createdAt - a.createdAt || (a.filename < b.filename ? 1 : a.filename > b.filename ? -1 : 0)

describe("the newest of each type", () => {
  it("keeps the newest keepPerType[type] backups of each type, and prunes the older ones", () => {
    const backups = [
      backup("m1", "manual", "2026-01-01T00:00:00Z"),
      backup("m2", "manual", "2026-01-02T00:00:00Z"),
      backup("m3", "manual", "2026-01-03T00:00:00Z"),
      backup("s1", "scheduled", "2026-01-01T01:00:00Z"),
      backup("s2", "scheduled", "2026-01-02T01:00:00Z"),
      backup("s3", "scheduled", "2026-01-03T01:00:00Z"),
      backup("s4", "scheduled", "2026-01-04T01:00:00Z"),
      backup("r1", "pre-restore", "2026-01-01T02:00:00Z"),
      backup("r2", "pre-restore", "2026-01-02T02:00:00Z"),
      backup("w1", "pre-wipe", "2026-01-01T03:00:00Z"),
      backup("w2", "pre-wipe", "2026-01-02T03:00:00Z"),
      backup("u1", "pre-update", "2026-01-01T04:00:00Z"),
      backup("u2", "pre-update", "2026-01-02T04:00:00Z")
    ]
    const verdict = judgeRetention(backups, policy({ manual: 2, scheduled: 3, "pre-restore": 1, "pre-wipe": 2, "pre-update": 1 }))
    expect(kept(verdict)).toEqual(["s4", "s3", "m3", "u2", "w2", "r2", "s2", "m2", "w1"])
    expect(verdict.prune).toEqual(["m1", "s1", "r1", "u1"])
    expect(entry(verdict, "s4")).toEqual({ filename: "s4", tier: undefined, reasons: ["newest-of-type", "newest"] })
    expect(entry(verdict, "w1")).toEqual({ filename: "w1", tier: undefined, reasons: ["newest-of-type"] })
  })

  it("keeps a type's every backup when it has fewer than N", () => {
    const backups = [backup("m1", "manual", "2026-01-01T00:00:00Z"), backup("s1", "scheduled", "2026-01-02T00:00:00Z")]
    const verdict = judgeRetention(backups, policy({ manual: 5, scheduled: 5 }))
    expect(kept(verdict)).toEqual(["s1", "m1"])
    expect(verdict.prune).toEqual([])
  })
})

describe("the newest of all", () => {
  it("is kept: the only backup is never pruned", () => {
    const only = [backup("old", "manual", "2001-01-01T00:00:00Z")]
    expect(judgeRetention(only, policy()).keep).toEqual([{ filename: "old", tier: undefined, reasons: ["newest-of-type", "newest"] }])
    // Even when the per-type numbers come in as nothing (0, negative, NaN: out of the HTTP layer's range).
    const none = policy({ manual: 0, scheduled: -3, "pre-restore": Number.NaN, "pre-wipe": 0, "pre-update": 0 })
    expect(judgeRetention(only, none)).toEqual({ keep: [{ filename: "old", tier: undefined, reasons: ["newest"] }], prune: [] })
  })

  it("is the one just made, whatever its type, when everything else is older", () => {
    const backups = [
      backup("s1", "scheduled", "2026-01-01T00:00:00Z"),
      backup("s2", "scheduled", "2026-01-02T00:00:00Z"),
      backup("w1", "pre-wipe", "2026-01-03T00:00:00Z")
    ]
    const verdict = judgeRetention(backups, policy({ scheduled: 1, "pre-wipe": 0 }))
    expect(kept(verdict)).toEqual(["w1", "s2"])
    expect(entry(verdict, "w1")?.reasons).toEqual(["newest"])
    expect(verdict.prune).toEqual(["s1"])
  })

  it("an empty listing gives an empty verdict", () => {
    expect(judgeRetention([], policy({}, { hourly: 24, daily: 7, weekly: 4, monthly: 12 }))).toEqual({ keep: [], prune: [] })
    expect(tiersOf([], policy()).size).toBe(0)
  })
})

describe("the rules together", () => {
  it("keep a backup when any of them keeps it, and list every reason", () => {
    const backups = [
      backup("s-jan", "scheduled", "2026-01-20T00:00:00Z"),
      backup("s-feb-early", "scheduled", "2026-02-01T00:00:00Z"),
      backup("s-feb", "scheduled", "2026-02-20T00:00:00Z"),
      backup("m-feb", "manual", "2026-02-10T00:00:00Z"),
      backup("m-jan", "manual", "2026-01-10T00:00:00Z"),
      backup("s-dec", "scheduled", "2025-12-20T00:00:00Z")
    ]
    const verdict = judgeRetention(backups, policy({ manual: 1, scheduled: 1 }, { monthly: 2 }))
    expect(verdict.keep).toEqual([
      { filename: "s-feb", tier: "monthly", reasons: ["newest-of-type", "monthly", "newest"] },
      { filename: "m-feb", tier: undefined, reasons: ["newest-of-type"] },
      { filename: "s-jan", tier: "monthly", reasons: ["monthly"] }
    ])
    expect(verdict.prune).toEqual(["s-dec", "m-jan", "s-feb-early"])
  })

  it("tiers look at all types together: a manual backup can be the day's keeper", () => {
    const backups = [
      backup("s-morning", "scheduled", "2026-05-04T06:00:00Z"),
      backup("m-evening", "manual", "2026-05-04T20:00:00Z"),
      backup("m-later", "manual", "2026-05-05T09:00:00Z"),
      backup("s-next", "scheduled", "2026-05-05T10:00:00Z")
    ]
    const verdict = judgeRetention(backups, policy({}, { daily: 2 }))
    expect(entry(verdict, "m-evening")).toEqual({ filename: "m-evening", tier: "daily", reasons: ["daily"] })
    expect(verdict.prune).toEqual(["s-morning"])
  })
})

describe("tiers over a realistic series", () => {
  // A scheduled backup every 15 minutes for 90 days, the newest on Wednesday 2026-03-18 at 10:45 UTC.
  const NEWEST = ms("2026-03-18T10:45:00Z")
  const COUNT = 90 * 96
  const name = (createdAt: number) => `scheduled-${new Date(createdAt).toISOString()}.zip`
  const series: ReadonlyArray<RetainedBackup> = Array.from({ length: COUNT }, (_, i) => {
    const createdAt = NEWEST - (COUNT - 1 - i) * 15 * MINUTE
    return { filename: name(createdAt), type: "scheduled", createdAt }
  })
  const tiers = { hourly: 24, daily: 7, weekly: 4, monthly: 3 }
  const verdict = judgeRetention(series, policy({ scheduled: 1 }, tiers))
  const at = (iso: string) => name(ms(iso))

  it("starts on 2025-12-18 at 11:00 (so it spans January, February and March)", () => {
    expect(series[0]!.createdAt).toBe(ms("2025-12-18T11:00:00Z"))
  })

  it("keeps exactly the keepers of the last 24 hours, 7 days, 4 ISO weeks and 3 months", () => {
    const hours = Array.from({ length: 24 }, (_, i) => NEWEST - i * HOUR) // each hour's :45, 2026-03-18T10 back to 2026-03-17T11
    // Days 03-18 and 03-17 already have their keeper among the hours (10:45 and 23:45): five more.
    const days = ["2026-03-16", "2026-03-15", "2026-03-14", "2026-03-13", "2026-03-12"].map((day) => ms(`${day}T23:45:00Z`))
    // This week's keeper is the newest, the week of 03-09's is Sunday 03-15 (a day's keeper): two more.
    const weeks = [ms("2026-03-08T23:45:00Z"), ms("2026-03-01T23:45:00Z")]
    // March's keeper is the newest: two more.
    const months = [ms("2026-02-28T23:45:00Z"), ms("2026-01-31T23:45:00Z")]
    const expected = [...hours, ...days, ...weeks, ...months].sort((a, b) => b - a).map(name)
    expect(verdict.keep).toHaveLength(33)
    expect(kept(verdict)).toEqual(expected)
    expect(verdict.prune).toHaveLength(COUNT - 33)
    expect(verdict.prune[0]).toBe(series[0]!.filename)
  })

  it("each tier keeps N backups, each the newest of its bucket, the buckets the newest N", () => {
    const bucketsWithBackups = (tier: Tier) => [...new Set([...series].reverse().map((b) => oracleBucket(tier, b.createdAt)))]
    for (const tier of TIERS) {
      const selected = verdict.keep.filter((entry) => entry.reasons.includes(tier))
      expect(selected, tier).toHaveLength(tiers[tier])
      const buckets = selected.map((entry) => oracleBucket(tier, series.find((b) => b.filename === entry.filename)!.createdAt))
      expect(buckets, tier).toEqual(bucketsWithBackups(tier).slice(0, tiers[tier]))
      for (const chosen of selected) {
        const createdAt = series.find((b) => b.filename === chosen.filename)!.createdAt
        const newestInBucket = Math.max(...series.filter((b) => oracleBucket(tier, b.createdAt) === oracleBucket(tier, createdAt)).map((b) => b.createdAt))
        expect(createdAt, `${tier} ${chosen.filename}`).toBe(newestInBucket)
      }
    }
  })

  it("names the coarsest tier of each kept backup", () => {
    expect(entry(verdict, at("2026-03-18T10:45:00Z"))).toEqual({
      filename: at("2026-03-18T10:45:00Z"),
      tier: "monthly",
      reasons: ["newest-of-type", "hourly", "daily", "weekly", "monthly", "newest"]
    })
    expect(entry(verdict, at("2026-03-17T23:45:00Z"))?.tier).toBe("daily")
    expect(entry(verdict, at("2026-03-17T22:45:00Z"))?.tier).toBe("hourly")
    expect(entry(verdict, at("2026-03-15T23:45:00Z"))?.reasons).toEqual(["daily", "weekly"])
    expect(entry(verdict, at("2026-03-08T23:45:00Z"))?.tier).toBe("weekly")
    expect(entry(verdict, at("2026-01-31T23:45:00Z"))).toEqual({ filename: at("2026-01-31T23:45:00Z"), tier: "monthly", reasons: ["monthly"] })
  })

  it("tiersOf gives the same tiers for a listing, and undefined for the pruned", () => {
    const listing = tiersOf(series, policy({ scheduled: 1 }, tiers))
    expect(listing.size).toBe(COUNT)
    for (const kept of verdict.keep) expect(listing.get(kept.filename)).toBe(kept.tier)
    for (const filename of verdict.prune) expect(listing.get(filename)).toBeUndefined()
    expect([...listing.values()].filter((tier) => tier === "monthly")).toHaveLength(3)
  })
})

describe("buckets", () => {
  it("hours without backups do not count", () => {
    const backups = [
      backup("a", "scheduled", "2026-04-01T00:10:00Z"),
      backup("b", "scheduled", "2026-04-01T00:50:00Z"),
      backup("c", "scheduled", "2026-04-01T05:00:00Z"),
      backup("d", "scheduled", "2026-04-01T09:59:59.999Z"),
      backup("e", "scheduled", "2026-04-01T10:00:00Z")
    ]
    const verdict = judgeRetention(backups, policy({ scheduled: 1 }, { hourly: 3 }))
    expect(kept(verdict)).toEqual(["e", "d", "c"])
    expect(verdict.prune).toEqual(["a", "b"])
  })

  it("weeks are ISO 8601 weeks: 2020-12-31 and 2021-01-03 are in 2020-W53, 2021-01-04 starts 2021-W01", () => {
    expect(bucketOf("weekly", ms("2020-12-31T12:00:00Z"))).toBe("2020-W53")
    expect(bucketOf("weekly", ms("2021-01-03T23:59:59.999Z"))).toBe("2020-W53")
    expect(bucketOf("weekly", ms("2021-01-04T00:00:00Z"))).toBe("2021-W01")
    expect(bucketOf("weekly", ms("2020-12-28T00:00:00Z"))).toBe("2020-W53")
    expect(bucketOf("weekly", ms("2020-12-27T23:59:59.999Z"))).toBe("2020-W52")
    // 2026 starts on a Thursday, so it has 53 weeks, and 2027-01-01 (a Friday) is in its last.
    expect(bucketOf("weekly", ms("2026-12-31T00:00:00Z"))).toBe("2026-W53")
    expect(bucketOf("weekly", ms("2027-01-01T00:00:00Z"))).toBe("2026-W53")
    expect(bucketOf("weekly", ms("2027-01-03T23:59:59.999Z"))).toBe("2026-W53")
    expect(bucketOf("weekly", ms("2027-01-04T00:00:00Z"))).toBe("2027-W01")
    // Monday 2024-12-30 is in the first week of 2025; 2026-01-01 (a Thursday) in the first of 2026.
    expect(bucketOf("weekly", ms("2024-12-30T00:00:00Z"))).toBe("2025-W01")
    expect(isoWeekOf(ms("2025-12-29T00:00:00Z"))).toEqual({ year: 2026, week: 1 })
    expect(isoWeekOf(ms("2026-01-01T00:00:00Z"))).toEqual({ year: 2026, week: 1 })
    expect(isoWeekOf(ms("2026-03-18T10:45:00Z"))).toEqual({ year: 2026, week: 12 })
    // Before the epoch too.
    expect(bucketOf("weekly", ms("1969-12-31T23:59:59.999Z"))).toBe("1970-W01")
    expect(bucketOf("weekly", ms("1969-12-28T23:59:59.999Z"))).toBe("1969-W52")
  })

  it("weekly retention keeps one backup per ISO week across the turn of the year", () => {
    const backups = [
      backup("thu-2020-12-31", "scheduled", "2020-12-31T12:00:00Z"),
      backup("sun-2021-01-03", "scheduled", "2021-01-03T12:00:00Z"),
      backup("mon-2021-01-04", "scheduled", "2021-01-04T12:00:00Z")
    ]
    const verdict = judgeRetention(backups, policy({ scheduled: 1 }, { weekly: 2 }))
    expect(kept(verdict)).toEqual(["mon-2021-01-04", "sun-2021-01-03"])
    expect(entry(verdict, "sun-2021-01-03")?.tier).toBe("weekly")
    expect(verdict.prune).toEqual(["thu-2020-12-31"])
    const wholeYearEnd = [
      backup("thu-2026-12-31", "scheduled", "2026-12-31T12:00:00Z"),
      backup("fri-2027-01-01", "scheduled", "2027-01-01T12:00:00Z"),
      backup("mon-2026-12-28", "scheduled", "2026-12-28T12:00:00Z"),
      backup("sun-2026-12-27", "scheduled", "2026-12-27T12:00:00Z")
    ]
    const turn = judgeRetention(wholeYearEnd, policy({ scheduled: 1 }, { weekly: 2 }))
    expect(kept(turn)).toEqual(["fri-2027-01-01", "sun-2026-12-27"])
    expect(turn.prune).toEqual(["mon-2026-12-28", "thu-2026-12-31"])
  })

  it("hours, days and months are UTC", () => {
    expect(bucketOf("hourly", ms("2026-03-18T10:59:59.999+00:00"))).toBe("2026-03-18T10")
    expect(bucketOf("hourly", ms("2026-03-18T11:30:00+01:00"))).toBe("2026-03-18T10")
    expect(bucketOf("daily", ms("2026-03-18T23:30:00-02:00"))).toBe("2026-03-19")
    expect(bucketOf("monthly", ms("2026-01-31T23:59:59.999Z"))).toBe("2026-01")
    expect(bucketOf("monthly", ms("2026-02-01T00:00:00Z"))).toBe("2026-02")
    expect(bucketOf("monthly", Number.NaN)).toBeUndefined()
  })

  it("monthly retention keeps the newest of each of the last N months that have one", () => {
    const backups = [
      backup("jan-first", "scheduled", "2026-01-01T00:00:00Z"),
      backup("jan-last", "scheduled", "2026-01-31T23:59:59.999Z"),
      backup("feb-first", "scheduled", "2026-02-01T00:00:00Z"),
      // no backup in March
      backup("apr-mid", "scheduled", "2026-04-15T00:00:00Z"),
      backup("apr-late", "scheduled", "2026-04-29T00:00:00Z"),
      backup("may-1", "scheduled", "2026-05-01T00:00:00Z")
    ]
    const verdict = judgeRetention(backups, policy({ scheduled: 1 }, { monthly: 3 }))
    expect(kept(verdict)).toEqual(["may-1", "apr-late", "feb-first"])
    expect(verdict.prune).toEqual(["jan-first", "jan-last", "apr-mid"])
    const more = judgeRetention(backups, policy({ scheduled: 1 }, { monthly: 12 }))
    expect(kept(more)).toEqual(["may-1", "apr-late", "feb-first", "jan-last"])
  })
})

describe("order and input", () => {
  it("breaks ties in createdAt by filename descending", () => {
    const backups = [
      backup("a.zip", "manual", "2026-01-01T00:00:00Z"),
      backup("c.zip", "manual", "2026-01-01T00:00:00Z"),
      backup("b.zip", "manual", "2026-01-01T00:00:00Z")
    ]
    const verdict = judgeRetention(backups, policy({ manual: 1 }))
    expect(verdict.keep).toEqual([{ filename: "c.zip", tier: undefined, reasons: ["newest-of-type", "newest"] }])
    expect(verdict.prune).toEqual(["a.zip", "b.zip"])
    const two = judgeRetention(backups, policy({ manual: 2 }, { daily: 1 }))
    expect(two.keep.map((kept) => [kept.filename, kept.tier])).toEqual([
      ["c.zip", "daily"],
      ["b.zip", undefined]
    ])
  })

  it("a filename given twice is one backup, the first one given", () => {
    const backups = [
      backup("x.zip", "manual", "2026-01-05T00:00:00Z"),
      backup("y.zip", "manual", "2026-01-04T00:00:00Z"),
      backup("x.zip", "scheduled", "2026-01-01T00:00:00Z")
    ]
    const verdict = judgeRetention(backups, policy({ manual: 1, scheduled: 1 }))
    expect(verdict).toEqual({ keep: [{ filename: "x.zip", tier: undefined, reasons: ["newest-of-type", "newest"] }], prune: ["y.zip"] })
    expect([...tiersOf(backups, policy()).keys()]).toEqual(["x.zip", "y.zip"])
  })

  it("does not depend on the order of the input", () => {
    const random = lcg(7)
    const base = ms("2026-02-01T00:00:00Z")
    const backups = Array.from({ length: 200 }, (_, i) => ({
      filename: `b${String(i).padStart(3, "0")}`,
      type: BACKUP_TYPES[random.int(BACKUP_TYPES.length)]!,
      // On a coarse grid, so that some share a createdAt.
      createdAt: base + random.int(400) * 3 * HOUR
    }))
    const rules = policy({ manual: 2, scheduled: 3 }, { hourly: 6, daily: 5, weekly: 3, monthly: 2 })
    const reference = judgeRetention(backups, rules)
    for (let seed = 1; seed <= 10; seed++) {
      expect(judgeRetention(shuffled(backups, seed), rules)).toEqual(reference)
      expect([...tiersOf(shuffled(backups, seed), rules)]).toEqual([...tiersOf(backups, rules)])
    }
  })

  it("reads policy numbers leniently: negatives and NaN are 0, fractions round down", () => {
    const backups = Array.from({ length: 6 }, (_, i) => ({ filename: `d${i}`, type: "scheduled" as const, createdAt: ms("2026-06-01T12:00:00Z") + i * DAY }))
    const fractional = judgeRetention(backups, policy({ scheduled: 2.9 }, { daily: 3.99, hourly: -1, weekly: Number.NaN, monthly: 0.5 }))
    expect(kept(fractional)).toEqual(["d5", "d4", "d3"])
    expect(fractional.keep.map((kept) => kept.reasons)).toEqual([["newest-of-type", "daily", "newest"], ["newest-of-type", "daily"], ["daily"]])
  })
})

describe("invariants over random series (seeded)", () => {
  const randomCase = (seed: number) => {
    const random = lcg(seed)
    const base = ms("2025-11-20T00:00:00Z")
    const spread = [HOUR * 6, DAY * 3, DAY * 30, DAY * 400][random.int(4)]!
    const grid = [1, MINUTE, 15 * MINUTE, HOUR][random.int(4)]!
    const count = random.int(80)
    const backups: Array<RetainedBackup> = Array.from({ length: count }, () => ({
      filename: `f${random.int(count * 2 + 1)}.zip`, // repeats on purpose
      type: BACKUP_TYPES[random.int(BACKUP_TYPES.length)]!,
      createdAt: base + Math.floor((random.next() * spread) / grid) * grid
    }))
    const number = (upTo: number) => (random.int(10) === 0 ? [-1, Number.NaN, 1.5][random.int(3)]! : random.int(upTo + 1))
    const rules: RetentionPolicy = {
      keepPerType: Object.fromEntries(BACKUP_TYPES.map((type) => [type, 1 + random.int(4)])) as Record<BackupType, number>,
      tiers: { hourly: number(8), daily: number(8), weekly: number(5), monthly: number(4) }
    }
    return { backups, rules }
  }
  const count = (value: number) => (Number.isNaN(value) || value < 0 ? 0 : Math.floor(value))

  it("hold for 500 series", () => {
    let pruned = 0
    for (let seed = 1; seed <= 500; seed++) {
      const { backups, rules } = randomCase(seed)
      const verdict = judgeRetention(backups, rules)
      const label = `seed ${seed}`
      // One backup per filename, the first given.
      const unique = [...new Map([...backups].reverse().map((b) => [b.filename, b])).values()].sort(byNewest)
      const keptNames = kept(verdict)

      // keep ∪ prune = input, disjoint; keep newest first, prune oldest first.
      expect([...keptNames, ...verdict.prune].sort(), label).toEqual(unique.map((b) => b.filename).sort())
      expect(new Set([...keptNames, ...verdict.prune]).size, label).toBe(unique.length)
      expect(keptNames, label).toEqual(unique.filter((b) => keptNames.includes(b.filename)).map((b) => b.filename))
      expect(verdict.prune, label).toEqual(unique.filter((b) => verdict.prune.includes(b.filename)).map((b) => b.filename).reverse())

      // The newest is always kept.
      if (unique.length > 0) expect(verdict.keep[0]?.filename, label).toBe(unique[0]!.filename)

      // Each type's newest min(N, count) are kept, and only those for that reason.
      const newestOfTypes = new Set<string>()
      for (const type of BACKUP_TYPES) {
        const ofType = unique.filter((b) => b.type === type)
        const newestOfType = ofType.slice(0, Math.min(rules.keepPerType[type], ofType.length))
        for (const b of newestOfType) {
          expect(entry(verdict, b.filename)?.reasons, `${label} ${type}`).toContain("newest-of-type")
          newestOfTypes.add(b.filename)
        }
      }
      expect(new Set(verdict.keep.filter((kept) => kept.reasons.includes("newest-of-type")).map((kept) => kept.filename)), label).toEqual(newestOfTypes)

      // Each tier keeps at most N, each the newest of its own bucket, from the newest N buckets; coarsest tier named.
      for (const tier of TIERS) {
        const limit = count(rules.tiers[tier])
        const selected = verdict.keep.filter((kept) => kept.reasons.includes(tier))
        expect(selected.length, `${label} ${tier}`).toBeLessThanOrEqual(limit)
        const buckets = [...new Set(unique.map((b) => oracleBucket(tier, b.createdAt)))].slice(0, limit)
        const keepers = buckets.map((bucket) => unique.find((b) => oracleBucket(tier, b.createdAt) === bucket)!.filename)
        expect(selected.map((kept) => kept.filename), `${label} ${tier}`).toEqual(keepers)
      }
      for (const kept of verdict.keep) {
        const tiers = TIERS.filter((tier) => kept.reasons.includes(tier))
        expect(kept.tier, label).toBe(tiers[tiers.length - 1])
        expect(kept.reasons.length, label).toBeGreaterThan(0)
      }
      pruned += verdict.prune.length
    }
    // The cases do prune (the invariants are not held vacuously).
    expect(pruned).toBeGreaterThan(1000)
  })
})
