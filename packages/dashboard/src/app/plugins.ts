/** The plugins whose pages the dashboard shows: each one's `ui/index.ts` descriptor. */
import type { PluginUi } from "../plugin.js"
import { accountsUi } from "../../../plugins/src/accounts/ui/index.js"
import { actionsUi } from "../../../plugins/src/actions/ui/index.js"
import { auditUi } from "../../../plugins/src/audit/ui/index.js"
import { backupsUi } from "../../../plugins/src/backups/ui/index.js"
import { bansUi } from "../../../plugins/src/bans/ui/index.js"
import { chatUi } from "../../../plugins/src/chat/ui/index.js"
import { cloudUi } from "../../../plugins/src/cloud/ui/index.js"
import { configUi } from "../../../plugins/src/config/ui/index.js"
import { dangerzoneUi } from "../../../plugins/src/dangerzone/ui/index.js"
import { gamelogUi } from "../../../plugins/src/gamelog/ui/index.js"
import { licenseUi } from "../../../plugins/src/license/ui/index.js"
import { logsUi } from "../../../plugins/src/logs/ui/index.js"
import { modsUi } from "../../../plugins/src/mods/ui/index.js"
import { notificationsUi } from "../../../plugins/src/notifications/ui/index.js"
import { playersUi } from "../../../plugins/src/players/ui/index.js"
import { priorityUi } from "../../../plugins/src/priority/ui/index.js"
import { schedulerUi } from "../../../plugins/src/scheduler/ui/index.js"
import { serversUi } from "../../../plugins/src/servers/ui/index.js"
import { storeUi } from "../../../plugins/src/store/ui/index.js"
import { systemUi } from "../../../plugins/src/system/ui/index.js"
import { trustUi } from "../../../plugins/src/trust/ui/index.js"
import { watchlistUi } from "../../../plugins/src/watchlist/ui/index.js"
import { webhooksUi } from "../../../plugins/src/webhooks/ui/index.js"
import { updatesUi } from "../../../plugins/src/updates/ui/index.js"
import { platformUi } from "../../../plugins/src/platform/ui/index.js"
import { filesUi } from "../../../plugins/src/files/ui/index.js"
import { typesUi } from "../../../plugins/src/types/ui/index.js"

export const plugins: ReadonlyArray<PluginUi> = [
  serversUi,
  playersUi,
  actionsUi,
  logsUi,
  schedulerUi,
  backupsUi,
  configUi,
  modsUi,
  dangerzoneUi,
  bansUi,
  priorityUi,
  accountsUi,
  auditUi,
  notificationsUi,
  storeUi,
  licenseUi,
  cloudUi,
  webhooksUi,
  chatUi,
  trustUi,
  gamelogUi,
  watchlistUi,
  systemUi,
  updatesUi,
  platformUi,
  filesUi,
  typesUi
]
