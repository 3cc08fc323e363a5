/**
 * The server's danger zone (`admin`): its log files cleared by category, a
 * wipe of its persistence, and a replicate of another server's files into
 * it. The server's name and state come from its polled status: the name is
 * what a wipe or a replicate asks to be typed back, the state explains why
 * the API would refuse one.
 */
import { api } from "@dashboard/api/client.js"
import { useCan } from "@dashboard/app/session.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { LogsSection } from "./LogsSection.js"
import { DANGERZONE_PERMISSION } from "./permission.js"
import { ReplicateSection } from "./ReplicateSection.js"
import { WipeSection } from "./WipeSection.js"

/** The state shown beside the wipe and the replicate: a stop from the server page shows here within this. */
const STATUS_POLL_MS = 3000

const DangerzoneTab = ({ serverId }: { readonly serverId: string }) => {
  const can = useCan()
  const allowed = can(DANGERZONE_PERMISSION, serverId)
  const status = useResource(() => api((c) => c.servers.status({ path: { id: serverId } })), [serverId], { pollMs: STATUS_POLL_MS })
  if (!allowed) return <p className="notice">You may not use the danger zone on this server: it needs the admin permission.</p>
  return (
    <div className="stack">
      <p className="notice warn">What is done here deletes or overwrites this server's files for good. A wipe and a replicate take a backup first; clearing logs does not.</p>
      <Loaded resource={status}>
        {(s) => (
          <>
            <LogsSection server={s} />
            <WipeSection server={s} />
            <ReplicateSection server={s} />
          </>
        )}
      </Loaded>
    </div>
  )
}

export default DangerzoneTab
