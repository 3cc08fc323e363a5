/** The benchmarks' ban rows: the same deterministic players on every side, so both hold the same data. */
const STEAM64_BASE = 76561197960265728n
const START = Date.parse("2024-01-01T00:00:00.000Z")

export interface BenchBanRow {
  readonly platformId: string
  readonly playerName: string
  readonly reason: string
  readonly bannedBy: string
  readonly bannedAt: string
}

/** `count` rows from player number `offset`, one second apart. */
export const benchRows = (count: number, offset: number): ReadonlyArray<BenchBanRow> =>
  Array.from({ length: count }, (_, i) => ({
    platformId: (STEAM64_BASE + 1_000_000n + BigInt(offset + i)).toString(),
    playerName: `Player ${offset + i}`,
    reason: "benchmark: cheating (speed hack, seen by two admins)",
    bannedBy: "bench",
    bannedAt: new Date(START + (offset + i) * 1000).toISOString()
  }))

/** A Steam64 for the `n`th ban added during a run, far from the seeded ones. */
export const addedPlayer = (n: number): string => (STEAM64_BASE + 500_000_000n + BigInt(n)).toString()
