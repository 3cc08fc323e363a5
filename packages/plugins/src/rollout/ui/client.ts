/** The rollout contract's client: loaded with the Mods tab that shows rollouts, not in the first load. */
import { apiFor } from "@dashboard/api/client.js"
import { RolloutApi } from "../contract/Api.js"

export const rolloutApi = apiFor(RolloutApi)
