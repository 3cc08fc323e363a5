import * as Layer from "effect/Layer"
import { BansRoutes } from "./bans.js"
import { PlayerBanRoutes } from "./playerBan.js"

export const Routes = Layer.merge(BansRoutes, PlayerBanRoutes)
