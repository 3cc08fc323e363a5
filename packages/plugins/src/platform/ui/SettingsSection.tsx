/**
 * Where SteamCMD and the Steam Web API are (admin): the form shows the
 * values in force, sends only what changed (`PATCH /api/platform/settings`),
 * and "Use the environment's" sends `null` for a value set here. The Web
 * API key is never shown: only whether one is set, a password input to set
 * a new one, and Clear (after a confirmation). A refused value's message
 * shows under its input.
 */
import { useState } from "react"
import { ApiError } from "@dashboard/api/client.js"
import { ActionButton, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { type PlatformStatus, SettingsPatch } from "../contract/Api.js"
import { platformApi } from "./client.js"
import { decodeForm } from "./formInput.js"
import { SOURCE_WORDS } from "./words.js"

type Field = "steamcmdPath" | "webApiUrl" | "webApiKey"

const LABELS: Readonly<Record<Field, string>> = { steamcmdPath: "SteamCMD program", webApiUrl: "Steam Web API address", webApiKey: "Steam Web API key" }

const Problem = ({ field, text }: { readonly field: Field; readonly text: string | undefined }) =>
  text === undefined ? null : (
    <p id={`platform-${field}-problem`} className="notice error" role="alert">
      {text}
    </p>
  )

const invalidProps = (problems: Readonly<Record<string, string>>, field: Field, hint?: string) => ({
  "aria-invalid": problems[field] !== undefined,
  "aria-describedby": [hint, problems[field] === undefined ? undefined : `platform-${field}-problem`].filter((x) => x !== undefined).join(" ") || undefined
})

export const SettingsSection = ({ status, saved }: { readonly status: PlatformStatus; readonly saved: (status: PlatformStatus) => void }) => {
  const [steamcmdPath, setSteamcmdPath] = useState(status.steamcmd.path)
  const [webApiUrl, setWebApiUrl] = useState(status.webApi.url)
  const [webApiKey, setWebApiKey] = useState("")
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({})

  /** Sends `fields`; the answer is the status after it. */
  const patch = async (fields: Readonly<Record<string, unknown>>) => {
    setProblems({})
    try {
      const payload = decodeForm(SettingsPatch, fields, LABELS)
      const next = await platformApi((c) => c.platform.settings({ payload }))
      saved(next)
      setWebApiKey("")
      return next
    } catch (error) {
      if (error instanceof ApiError) setProblems(error.fields)
      throw error
    }
  }

  const changes = {
    ...(steamcmdPath.trim() !== status.steamcmd.path ? { steamcmdPath: steamcmdPath.trim() } : {}),
    ...(webApiUrl.trim() !== status.webApi.url ? { webApiUrl: webApiUrl.trim() } : {}),
    ...(webApiKey.trim() !== "" ? { webApiKey: webApiKey.trim() } : {})
  }
  const changed = Object.keys(changes).length > 0
  const { busy, submit } = useSubmit(() => patch(changes), "Settings saved")

  return (
    <form className="card stack" aria-labelledby="platform-settings-title" onSubmit={(e) => void submit(e)} noValidate>
      <h2 id="platform-settings-title">Settings</h2>
      <label>
        SteamCMD program
        <input value={steamcmdPath} onChange={(e) => setSteamcmdPath(e.target.value)} autoComplete="off" spellCheck={false} {...invalidProps(problems, "steamcmdPath", "platform-steamcmdPath-hint")} />
      </label>
      <p id="platform-steamcmdPath-hint" className="muted">
        The path of steamcmd.sh, or a name looked up on the PATH. In force now: {SOURCE_WORDS[status.steamcmd.source]}.
      </p>
      <Problem field="steamcmdPath" text={problems["steamcmdPath"]} />
      <label>
        Steam Web API address
        <input
          type="url"
          value={webApiUrl}
          onChange={(e) => setWebApiUrl(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          {...invalidProps(problems, "webApiUrl", "platform-webApiUrl-hint")}
        />
      </label>
      <p id="platform-webApiUrl-hint" className="muted">
        Where workshop searches and details are asked. In force now: {SOURCE_WORDS[status.webApi.source]}.
      </p>
      <Problem field="webApiUrl" text={problems["webApiUrl"]} />
      <label>
        New Steam Web API key
        <input type="password" value={webApiKey} onChange={(e) => setWebApiKey(e.target.value)} autoComplete="new-password" spellCheck={false} {...invalidProps(problems, "webApiKey", "platform-webApiKey-hint")} />
      </label>
      <p id="platform-webApiKey-hint" className="muted">
        {status.webApi.keySet ? "A key is set; it is never shown. Type a new one to replace it." : "No key is set."} Leave empty to keep it as it is.
      </p>
      <Problem field="webApiKey" text={problems["webApiKey"]} />
      <div className="row">
        <SubmitButton busy={busy} busyLabel="Saving" disabled={!changed}>
          Save settings
        </SubmitButton>
        {status.steamcmd.source === "setting" && (
          <ActionButton run={() => patch({ steamcmdPath: null }).then((next) => setSteamcmdPath(next.steamcmd.path))} done="SteamCMD path reset" disabled={busy}>
            Use the environment&apos;s SteamCMD path
          </ActionButton>
        )}
        {status.webApi.source === "setting" && (
          <ActionButton run={() => patch({ webApiUrl: null }).then((next) => setWebApiUrl(next.webApi.url))} done="Web API address reset" disabled={busy}>
            Use the environment&apos;s Web API address
          </ActionButton>
        )}
        {status.webApi.keySet && (
          <ActionButton
            className="danger"
            run={() => patch({ webApiKey: null })}
            done="Web API key cleared"
            disabled={busy}
            confirm={{
              title: "Clear the Steam Web API key?",
              body: "The key set here is deleted; one set in the environment (STEAM_WEB_API_KEY) is used again. Steam refuses workshop searches without a key.",
              confirmLabel: "Clear",
              danger: true
            }}
          >
            Clear the Web API key
          </ActionButton>
        )}
      </div>
    </form>
  )
}
