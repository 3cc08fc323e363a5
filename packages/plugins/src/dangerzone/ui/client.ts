/**
 * The dangerzone contract's client, built the first time the tab asks (the
 * contract is not in the shell's `GarrisonApi`, so it loads with this page).
 */
import { apiFor } from "@dashboard/api/client.js"
import { DangerzoneApi } from "../contract/Api.js"

export const dangerzoneApi = apiFor(DangerzoneApi)
