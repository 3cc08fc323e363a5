/** What rollouts work with: staged downloads, what was put on a server, and which updates are due. */
import type * as Option from "effect/Option"
import type { WorkshopItem } from "../platform/index.js"
import type { Mod, ModType } from "./contract/Api.js"

/** A newer version in the download cache, ready to be put on a server. */
export interface StagedMod {
  readonly workshopId: string
  readonly folder: string
  readonly downloadedAt: string
  readonly workshopUpdatedAt: string | null
  readonly title: string
}

/** A mod a rollout installs: downloaded, not on the server yet. */
export interface StagedInstall {
  readonly input: { readonly workshopId: string; readonly name?: string | undefined; readonly type: ModType }
  readonly downloaded: { readonly folder: string; readonly downloadedAt: string }
  readonly details: Option.Option<WorkshopItem>
}

/** What a rollout put on a server: a newer version (with the mod as it was) or a new mod. */
export type AppliedMod =
  | { readonly _tag: "Updated"; readonly staged: StagedMod; readonly before: Mod; readonly keys: ReadonlyArray<string> }
  | { readonly _tag: "Installed"; readonly mod: Mod }

/** Whether `mod` has an update a rollout applies now: pending, not pinned, and not the version a rollout rolled back. */
export const isDue = (mod: Mod): boolean =>
  mod.pendingUpdate !== null && !mod.pinned && (mod.heldUpdate === null || mod.pendingUpdate.workshopUpdatedAt > mod.heldUpdate)
