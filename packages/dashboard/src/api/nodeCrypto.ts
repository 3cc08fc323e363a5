/**
 * `node:crypto` in the browser: the runtime's player-id module (whose
 * `PlatformId` schema the priority contract uses) hashes GUIDs and DayZ IDs
 * with `createHash`, which parsing a platform id never calls.
 */
export const createHash = (): never => {
  throw new Error("node:crypto is not available in the dashboard")
}
