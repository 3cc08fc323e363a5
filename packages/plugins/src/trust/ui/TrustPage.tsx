/**
 * The trust network. `trust.manage`: the ban pool (filtered by status,
 * overturn with a note), submitting a ban of the ban list, appeals
 * (recorded, approved or rejected with a note), the communities and their
 * weights (review), and the player lookup. Admins also: the partner keys
 * (issued with a tier, shown once, revoked) and the subscriptions to
 * partners' exports (policy, pull now, remove). Each section reads its own
 * data; when one changes the pool, the others read theirs again.
 */
import { useReducer } from "react"
import { allowed, useSession } from "@dashboard/app/session.js"
import { AppealsSection } from "./AppealsSection.js"
import { CommunitiesSection } from "./CommunitiesSection.js"
import { LookupSection } from "./LookupSection.js"
import { PartnerKeysSection } from "./PartnerKeysSection.js"
import { PoolSection } from "./PoolSection.js"
import type { Changes } from "./shared.js"
import { SubmitForm } from "./SubmitForm.js"
import { SubscriptionsSection } from "./SubscriptionsSection.js"

const TrustPage = () => {
  const { me } = useSession()
  const admin = allowed(me, "admin")
  const [version, changed] = useReducer((n: number) => n + 1, 0)
  const changes: Changes = { version, changed }
  return (
    <section className="stack">
      <h1>Trust network</h1>
      <p className="muted">
        Communities share the bans they vouch for in a pool; a ban vouched for by enough weight is active across the network, and every player has a
        public trust score (<code>GET /api/v1/trust/&#123;player&#125;</code>) that servers and bots can check.
      </p>
      <PoolSection changes={changes} />
      <SubmitForm canPickBans={allowed(me, "bans.manage")} changes={changes} />
      <AppealsSection changes={changes} />
      <CommunitiesSection changes={changes} />
      <LookupSection />
      {admin && <PartnerKeysSection />}
      {admin && <SubscriptionsSection changes={changes} />}
    </section>
  )
}

export default TrustPage
