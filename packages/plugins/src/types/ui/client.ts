/**
 * The types plugin's API for its page (`apiFor`: built when the page's chunk
 * loads, not in the first load), and the reads the page makes of it.
 */
import { apiFor } from "@dashboard/api/client.js"
import { type TypeItem, TYPES_PAGE, TypesApi } from "../contract/Api.js"

export const typesApi = apiFor(TypesApi)

/** Every item of one types file, in file order (pages of the largest size the API allows, followed to the end). */
export const allItemsOf = async (serverId: string, file: string): Promise<ReadonlyArray<TypeItem>> => {
  const items: Array<TypeItem> = []
  let cursor: string | undefined
  do {
    const page = await typesApi((c) => c.types.items({ path: { id: serverId }, urlParams: { file, limit: TYPES_PAGE.maxLimit, ...(cursor === undefined ? {} : { cursor }) } }))
    items.push(...page.items)
    cursor = page.nextCursor ?? undefined
  } while (cursor !== undefined)
  return items
}

/** One item as the file has it now, or undefined when the file has no item of that name. */
export const itemNow = async (serverId: string, file: string, name: string): Promise<TypeItem | undefined> => {
  const page = await typesApi((c) => c.types.items({ path: { id: serverId }, urlParams: { file, name, limit: TYPES_PAGE.maxLimit } }))
  return page.items.find((item) => item.name.toLowerCase() === name.toLowerCase())
}

/** A path of the mission's folder as the page shows it: relative to the mission (`db/types.xml`). */
export const inMission = (mission: string, path: string): string => (path.startsWith(`${mission}/`) ? path.slice(mission.length + 1) : path)
