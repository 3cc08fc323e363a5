/**
 * The permissions the default plugins own, declared by one test plugin: for
 * tests that grant or check them without loading their owners (roles in
 * the accounts tests, audiences in the notifications tests). A test that
 * loads an owner (the servers plugin, say) must not load this too: the
 * plan refuses a permission declared twice.
 */
import { BANS_PERMISSIONS } from "@garrison/plugins/bans"
import { MODS_PERMISSIONS } from "@garrison/plugins/mods"
import { PLAYER_PERMISSIONS } from "@garrison/plugins/players"
import { PRIORITY_PERMISSIONS } from "@garrison/plugins/priority"
import { SERVER_PERMISSIONS } from "@garrison/plugins/servers"
import { Plugin } from "@garrison/runtime"

export const DefaultPermissionsPlugin = Plugin.make({
  id: "default-permissions",
  description: "The default plugins' permissions, for tests that do not load them",
  permissions: [...SERVER_PERMISSIONS, ...PLAYER_PERMISSIONS, ...BANS_PERMISSIONS, ...MODS_PERMISSIONS, ...PRIORITY_PERMISSIONS]
})
