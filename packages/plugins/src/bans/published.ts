/** The bans plugin's bus events as the outside sees them (webhooks, the cloud link). */
import { oneLine, published } from "@garrison/runtime"
import { BanAdded, BanRemoved, BansImported } from "./events.js"

export const BAN_EVENTS = [
  published(BanAdded, {
    name: "player.ban",
    description: "A player was banned on every server (the global ban list, synced into each server's ban.txt); `expiresAt` is null for a permanent ban.",
    example: new BanAdded({
      id: "5f0c7a52-8d1e-4b6a-9c3f-2e7d1a4b9c60",
      platformId: "76561198000000001",
      playerName: "Bravo17",
      reason: "Cheating",
      bannedBy: "alice",
      bannedAt: "2026-03-14T20:15:00.000Z",
      expiresAt: "2026-03-21T20:15:00.000Z",
      source: "manual"
    }),
    severity: "warning",
    summary: (e) =>
      `${oneLine(e.playerName, 100)} (${e.platformId}) was banned by ${e.bannedBy}${e.expiresAt === null ? " permanently" : ` until ${e.expiresAt}`}: ${oneLine(e.reason, 200)}`
  }),
  published(BanRemoved, {
    name: "player.unban",
    description: "A ban was removed from the global ban list; the player may join again.",
    example: new BanRemoved({ id: "5f0c7a52-8d1e-4b6a-9c3f-2e7d1a4b9c60", platformId: "76561198000000001", removedBy: "alice" }),
    summary: (e) => `${e.platformId} was unbanned by ${e.removedBy}`
  }),
  published(BansImported, {
    name: "bans.imported",
    description: "A ban list was imported (one event per import, not per ban): how many bans were added, skipped as already banned, and refused.",
    example: new BansImported({ added: 42, skipped: 3, failed: 0, importedBy: "alice" }),
    severity: (e) => (e.failed > 0 ? "warning" : "info"),
    severities: ["info", "warning"],
    summary: (e) => `${e.importedBy} imported bans: ${e.added} added, ${e.skipped} skipped, ${e.failed} refused`
  })
]
