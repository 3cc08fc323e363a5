import { Layer } from "effect"
import { BansRoutes } from "./bans.js"
import { PlayerBanRoutes } from "./playerBan.js"

export const Routes = Layer.merge(BansRoutes, PlayerBanRoutes)
