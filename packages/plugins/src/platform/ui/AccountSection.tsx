/**
 * The Steam account downloads sign in with (admin). "Sign in and save"
 * proves it through a SteamCMD login first; when Steam asks for a Steam
 * Guard code (the API's 409) the form asks for it and signs in again with
 * it. "Save without checking" stores it for the first download to prove.
 * "Remove account" forgets it, after a confirmation. The password is never
 * shown back: the API never answers it, and the form forgets it once used.
 */
import { useEffect, useRef, useState } from "react"
import { ApiError } from "@dashboard/api/client.js"
import { ActionButton, SubmitButton, useFeedback, useSubmit } from "@dashboard/ui/feedback.js"
import { CredentialsInput, CredentialsSaveInput, type PlatformStatus } from "../contract/Api.js"
import { platformApi } from "./client.js"
import { decodeForm } from "./formInput.js"

const LABELS = { username: "Steam account name", password: "Password", guardCode: "Steam Guard code" } as const

const Problem = ({ id, text }: { readonly id: string; readonly text: string | undefined }) =>
  text === undefined ? null : (
    <p id={id} className="notice error" role="alert">
      {text}
    </p>
  )

export const AccountSection = ({ status, changed }: { readonly status: PlatformStatus; readonly changed: () => Promise<void> }) => {
  const feedback = useFeedback()
  const [username, setUsername] = useState("")
  const [password, setPassword] = useState("")
  const [guardCode, setGuardCode] = useState("")
  /** Steam's question for a code, in the API's words; set after a 409. */
  const [guardAsked, setGuardAsked] = useState<string | undefined>(undefined)
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({})
  const guardInput = useRef<HTMLInputElement>(null)
  const stored = status.credentials
  // The next step is the code: the focus goes to its input once it is shown.
  useEffect(() => {
    if (guardAsked !== undefined) guardInput.current?.focus()
  }, [guardAsked])

  const forget = () => {
    setPassword("")
    setGuardCode("")
    setGuardAsked(undefined)
    setProblems({})
  }
  /** Field problems under their inputs, and the error on for its toast. */
  const refused = (error: unknown): never => {
    if (error instanceof ApiError) setProblems(error.fields)
    throw error
  }

  const { busy, submit } = useSubmit(async () => {
    setProblems({})
    try {
      const code = guardCode.trim()
      const payload = decodeForm(CredentialsInput, { username, password, ...(guardAsked !== undefined && code !== "" ? { guardCode: code } : {}) }, LABELS)
      const result = await platformApi((c) => c.platform.credentials({ payload }))
      forget()
      await changed()
      feedback.ok(`Signed in to Steam as ${result.username}: the account is saved`)
    } catch (error) {
      // Steam asks for a Steam Guard code: not a failure, the next step.
      if (error instanceof ApiError && error.status === 409) {
        setGuardAsked(error.message)
        setGuardCode("")
        return
      }
      refused(error)
    }
  })

  const saveUnchecked = async () => {
    setProblems({})
    try {
      const payload = decodeForm(CredentialsSaveInput, { username, password }, LABELS)
      const result = await platformApi((c) => c.platform.saveCredentials({ payload }))
      forget()
      await changed()
      feedback.ok(`Saved the account ${result.username} without a check: the first download signs in with it`)
    } catch (error) {
      refused(error)
    }
  }

  return (
    <section className="card stack" aria-labelledby="steam-account-title">
      <h2 id="steam-account-title">Steam account</h2>
      <p className="muted">
        SteamCMD signs in with this account to download the game server and workshop mods; it must own DayZ. Use an account made for the server host, not a
        personal one. The password is stored encrypted and never shown again.
      </p>
      <form className="stack" aria-label="Steam sign-in" onSubmit={(e) => void submit(e)} noValidate>
        <label>
          Steam account name
          <input
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            required
            aria-invalid={problems["username"] !== undefined}
            aria-describedby={problems["username"] === undefined ? undefined : "steam-username-problem"}
          />
        </label>
        <Problem id="steam-username-problem" text={problems["username"]} />
        <label>
          Password
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
            required
            aria-invalid={problems["password"] !== undefined}
            aria-describedby={problems["password"] === undefined ? undefined : "steam-password-problem"}
          />
        </label>
        <Problem id="steam-password-problem" text={problems["password"]} />
        {guardAsked !== undefined && (
          <>
            <p className="notice warn" role="status">
              Steam asks for a Steam Guard code (SteamCMD said: {guardAsked}). Enter the code Steam sent to the account&apos;s e-mail or shows in its
              authenticator app, then sign in again.
            </p>
            <label>
              Steam Guard code
              <input
                ref={guardInput}
                value={guardCode}
                onChange={(e) => setGuardCode(e.target.value)}
                autoComplete="one-time-code"
                spellCheck={false}
                maxLength={5}
                required
                aria-invalid={problems["guardCode"] !== undefined}
                aria-describedby={problems["guardCode"] === undefined ? undefined : "steam-guard-problem"}
              />
            </label>
            <Problem id="steam-guard-problem" text={problems["guardCode"]} />
          </>
        )}
        <div className="row">
          <SubmitButton busy={busy} busyLabel="Signing in">
            {guardAsked === undefined ? "Sign in and save" : "Sign in with the code"}
          </SubmitButton>
          <ActionButton
            run={saveUnchecked}
            disabled={busy}
            confirm={
              stored.configured
                ? {
                    title: "Replace the stored account?",
                    body: `${stored.username ?? "The stored account"} is replaced by this one, saved without a check: the next download signs in with it.`,
                    confirmLabel: "Replace"
                  }
                : undefined
            }
          >
            Save without checking
          </ActionButton>
          {guardAsked !== undefined && (
            <button type="button" onClick={forget}>
              Start over
            </button>
          )}
        </div>
      </form>
      {stored.configured && (
        <div className="row">
          <ActionButton
            className="danger"
            run={async () => {
              await platformApi((c) => c.platform.removeCredentials())
              await changed()
            }}
            done="Steam account removed"
            confirm={{
              title: `Remove the Steam account ${stored.username ?? ""}?`.replace(" ?", "?"),
              body: "Garrison forgets the account and its password. Game updates, deploys and mod downloads fail until an account is set again.",
              confirmLabel: "Remove",
              danger: true
            }}
          >
            Remove account
          </ActionButton>
        </div>
      )}
    </section>
  )
}
