/**
 * The launch parameters installed mods make: enabled client mods in load
 * order for `-mod=`, server mods for `-serverMod=`; and an entry's lists
 * with them, keeping folders an admin named by hand (after the managed ones).
 */
import { ServerEntry } from "@garrison/runtime"
import { type Mod, ModList } from "../contract/Api.js"

export const launchOf = (mods: ReadonlyArray<Mod>) => {
  const enabled = mods.filter((m) => m.enabled)
  return {
    mod: enabled.filter((m) => m.type === "client").map((m) => m.name),
    serverMod: enabled.filter((m) => m.type === "server").map((m) => m.name)
  }
}

/** The list route's answer: the mods and the launch parameters they make. */
export const listOf = (mods: ReadonlyArray<Mod>): ModList => {
  const launch = launchOf(mods)
  return new ModList({ items: mods, nextCursor: null, launch: { mod: launch.mod.join(";"), serverMod: launch.serverMod.join(";") } })
}

/**
 * The entry with `mods`/`serverMods` from the installed mods, or undefined
 * when they are as they were. `gone` are folders of mods just removed (no
 * longer installed, so not the admin's own either).
 */
export const withLaunch = (entry: ServerEntry, mods: ReadonlyArray<Mod>, gone: ReadonlyArray<string>): ServerEntry | undefined => {
  const managed = new Set([...mods.map((m) => m.name.toLowerCase()), ...gone.map((g) => g.toLowerCase())])
  const launch = launchOf(mods)
  const keep = (names: ReadonlyArray<string>) => names.filter((name) => !managed.has(name.toLowerCase()))
  const next = new ServerEntry({ ...entry, mods: [...launch.mod, ...keep(entry.mods)], serverMods: [...launch.serverMod, ...keep(entry.serverMods)] })
  return next.mods.join(";") === entry.mods.join(";") && next.serverMods.join(";") === entry.serverMods.join(";") ? undefined : next
}
