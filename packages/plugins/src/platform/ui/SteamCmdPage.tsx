/**
 * The SteamCMD page (admin): the platform's status (SteamCMD, the Steam Web
 * API, the stored account, the workshop cache), the Steam account's sign-in
 * with its Steam Guard step, and the settings form with the values in force.
 */
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { AccountSection } from "./AccountSection.js"
import { platformApi } from "./client.js"
import { SettingsSection } from "./SettingsSection.js"
import { StatusSection } from "./StatusSection.js"

const SteamCmdPage = () => {
  const status = useResource(() => platformApi((c) => c.platform.status()), [])
  return (
    <div className="stack">
      <h1>SteamCMD</h1>
      <p className="muted">Valve&apos;s download tool installs and updates the game server and workshop mods. Here is where it is, and the Steam account it uses.</p>
      <Loaded resource={status}>
        {(s) => (
          <>
            <StatusSection status={s} />
            <AccountSection status={s} changed={status.reload} />
            {/* Keyed by the values in force: the form starts again from them when they change. */}
            <SettingsSection key={`${s.steamcmd.path}|${s.webApi.url}`} status={s} saved={(next) => status.set(() => next)} />
          </>
        )}
      </Loaded>
    </div>
  )
}

export default SteamCmdPage
