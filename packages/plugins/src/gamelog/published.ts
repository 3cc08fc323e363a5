/** The game log's bus events as the outside sees them (webhooks, the cloud link). */
import { published } from "@garrison/runtime"
import { GameKillRecorded, GameSeasonStarted } from "./events.js"

const where = (e: GameKillRecorded) => (e.distance === null ? "" : ` from ${e.distance} m`)

export const GAMELOG_EVENTS = [
  published(GameKillRecorded, {
    name: "game.kill",
    description:
      "A death read from a server's admin log: the killer (a player, zombie, animal, the environment, or a suicide), the victim, weapon, distance, the fatal hit's zone, headshot, positions.",
    example: new GameKillRecorded({
      id: "srv-1:DayZServer_x64_2026-11-21_18-00-00.ADM:10422",
      serverId: "srv-1",
      killerKind: "player",
      platformId: "76561198000000001",
      playerId: "2pJxkLyPSJc7S8Yq1tXgK3N5eAqvEoFZ8Wq0x9mQw1k=",
      name: "Alice",
      victimPlatformId: null,
      victimPlayerId: "e9O13H01aY6sR2UNIIlSjFYZxWYClNMcfAyeLWD-IZA=",
      victimName: "Bob",
      distance: 24.38,
      weapon: "M4-A1",
      zone: "Head",
      headshot: true,
      timestamp: "2026-11-21T18:03:00.000Z",
      killerPos: { x: 4500.5, y: 10200.2, z: 310 },
      victimPos: { x: 4510, y: 10210, z: 311 }
    }),
    summary: (e) =>
      e.killerKind === "player"
        ? `${e.name ?? "someone"} killed ${e.victimName}${e.weapon === null ? "" : ` with ${e.weapon}`}${where(e)}${e.headshot ? " (headshot)" : ""}`
        : e.killerKind === "suicide"
          ? `${e.victimName} committed suicide`
          : `${e.victimName} was killed by ${e.name ?? e.killerKind}`
  }),
  published(GameSeasonStarted, {
    name: "leaderboard.season-started",
    description: "A server's leaderboard season ended and the next began (a wipe or an admin's reset); the past one stays readable.",
    example: new GameSeasonStarted({ serverId: "srv-1", seasonId: "0b5f6f1e-6c1a-4c57-9a4e-2f3d8e1b7c90", number: 2, reason: "wipe" }),
    summary: (e) => `Leaderboard season ${e.number} started on server ${e.serverId} (${e.reason})`
  })
]
