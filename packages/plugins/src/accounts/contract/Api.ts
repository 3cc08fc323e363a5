/**
 * The accounts plugin's HTTP contract, kept apart from the handlers so a
 * client can import it without the implementation.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import { AuthGroup, SessionGroup } from "./Auth.js"
import { BackupGroup } from "./Backup.js"
import { SetupGroup } from "./Setup.js"
import { RolesGroup, UsersGroup } from "./Users.js"

export class AccountsApi extends HttpApi.make("accounts")
  .add(AuthGroup)
  .add(SessionGroup)
  .add(SetupGroup)
  .add(UsersGroup)
  .add(RolesGroup)
  .add(BackupGroup) {}

export * from "./Auth.js"
export * from "./Backup.js"
export * from "./Setup.js"
export * from "./Users.js"
