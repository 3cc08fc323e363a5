/**
 * The rollout part of the Mods tab: the last or running rollout (followed
 * live), the form that starts one (`mods.install` and `server.restart` on
 * the server), and the policy (changed with `mods.install`).
 */
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { isDue } from "../../mods/model.js"
import type { Mod } from "../../mods/contract/Api.js"
import { rolloutApi } from "./client.js"
import { RolloutPolicyPanel } from "./RolloutPolicyPanel.js"
import { RolloutStartForm } from "./RolloutStartForm.js"
import { RolloutStatusView } from "./RolloutStatusView.js"
import type { RolloutView } from "./useRollout.js"

export const RolloutSection = ({
  serverId,
  rollout,
  mods,
  serverRunning,
  canStart,
  canEditPolicy
}: {
  readonly serverId: string
  readonly rollout: RolloutView
  /** The installed mods (undefined while they load). */
  readonly mods: ReadonlyArray<Mod> | undefined
  readonly serverRunning: boolean
  readonly canStart: boolean
  readonly canEditPolicy: boolean
}) => {
  const policy = useResource(() => rolloutApi((c) => c.rollout.policy({ path: { id: serverId } })), [serverId])
  return (
    <section className="stack" aria-labelledby="rollout-title">
      <h2 id="rollout-title">Safe rollout</h2>
      <p className="muted">
        Puts updates on a running server without breaking play: downloads first, warns the players, restarts with the new versions and checks the server;
        a version that breaks it is rolled back.
      </p>
      {rollout.status.data === undefined && rollout.status.error === undefined ? null : (
        <Loaded resource={rollout.status}>{(status) => <RolloutStatusView status={status} />}</Loaded>
      )}
      {canStart && (
        <RolloutStartForm
          serverId={serverId}
          due={(mods ?? []).filter(isDue)}
          serverRunning={serverRunning}
          policy={policy.data}
          rolloutRunning={rollout.running}
          started={rollout.started}
        />
      )}
      <RolloutPolicyPanel serverId={serverId} policy={policy} canEdit={canEditPolicy} />
    </section>
  )
}
