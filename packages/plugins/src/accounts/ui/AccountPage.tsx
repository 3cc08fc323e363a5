/** The signed-in user's account: password change, MFA setup (QR code, recovery codes) and MFA off. */
import QRCode from "qrcode"
import { useEffect, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { useSession } from "@dashboard/app/session.js"
import { ActionButton, Spinner, SubmitButton, useFeedback, useSubmit } from "@dashboard/ui/feedback.js"
import { ChangePasswordRequest, MfaDisableRequest, MfaVerifyRequest } from "../contract/Api.js"
import { EMPTY_CHANGE, type PasswordChange, PasswordFields } from "./PasswordFields.js"

const ChangePassword = () => {
  const [change, setChange] = useState<PasswordChange>(EMPTY_CHANGE)
  const { refresh } = useSession()
  const { busy, submit } = useSubmit(async () => {
    if (change.next !== change.repeat) throw new Error("the two new passwords differ")
    await api((c) =>
      c.auth.changePasswordForced({ payload: new ChangePasswordRequest({ currentPassword: change.current, newPassword: change.next }) })
    )
    setChange(EMPTY_CHANGE)
    await refresh()
  }, "Password changed; your other sessions were signed out")
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <PasswordFields value={change} onChange={setChange} />
      <div>
        <SubmitButton busy={busy}>Change password</SubmitButton>
      </div>
    </form>
  )
}

const Mfa = () => {
  const { me, refresh } = useSession()
  const feedback = useFeedback()
  const [enrolment, setEnrolment] = useState<{ readonly secret: string; readonly uri: string } | undefined>()
  const [qr, setQr] = useState<string | undefined>()
  const [code, setCode] = useState("")
  const [recovery, setRecovery] = useState<ReadonlyArray<string> | undefined>()
  const [disableWith, setDisableWith] = useState("")

  useEffect(() => {
    if (enrolment === undefined) return setQr(undefined)
    void QRCode.toDataURL(enrolment.uri, { margin: 1, width: 192 }).then(setQr, feedback.error)
  }, [enrolment])

  const verify = useSubmit(async () => {
    const result = await api((c) => c.auth.mfaVerify({ payload: new MfaVerifyRequest({ code }) }))
    setRecovery(result.recoveryCodes)
    setEnrolment(undefined)
    setCode("")
    await refresh()
  }, "Two-step verification is on")

  const disable = useSubmit(async () => {
    const value = disableWith.trim()
    await api((c) => c.auth.mfaDisable({ payload: new MfaDisableRequest(/^\d{6,8}$/.test(value) ? { code: value } : { password: disableWith }) }))
    setDisableWith("")
    await refresh()
  }, "Two-step verification is off")

  return (
    <section className="card stack" aria-labelledby="mfa-title">
      <h2 id="mfa-title">Two-step verification (MFA)</h2>
      <p>
        Status: <strong>{me.user.mfaEnabled ? "on" : "off"}</strong>
      </p>
      {recovery !== undefined && (
        <div className="notice" role="region" aria-label="Recovery codes">
          <p>
            <strong>Recovery codes.</strong> Each signs you in once in place of a code. They are shown only now: keep them safe.
          </p>
          <ul className="codes">
            {recovery.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <button type="button" onClick={() => void navigator.clipboard?.writeText(recovery.join("\n")).then(() => feedback.ok("Copied"))}>
            Copy
          </button>{" "}
          <button type="button" onClick={() => setRecovery(undefined)}>
            I have saved them
          </button>
        </div>
      )}
      {!me.user.mfaEnabled && enrolment === undefined && (
        <div>
          <ActionButton className="primary" run={async () => setEnrolment(await api((c) => c.auth.mfaSetup()))}>
            Set up MFA
          </ActionButton>
        </div>
      )}
      {!me.user.mfaEnabled && enrolment !== undefined && (
        <form className="stack" onSubmit={verify.submit}>
          <p>Scan the code with an authenticator app, or type the secret, then enter the 6-digit code it shows.</p>
          {qr === undefined ? <Spinner label="Drawing the QR code" /> : <img className="qr" src={qr} alt="QR code of the MFA secret" />}
          <p>
            Secret: <code>{enrolment.secret}</code>
          </p>
          <label>
            Code
            <input value={code} onChange={(e) => setCode(e.target.value.trim())} inputMode="numeric" autoComplete="one-time-code" required />
          </label>
          <div className="row">
            <SubmitButton busy={verify.busy}>Turn MFA on</SubmitButton>
            <button type="button" onClick={() => setEnrolment(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {me.user.mfaEnabled && (
        <form className="stack" onSubmit={disable.submit}>
          <label>
            A current code or your password
            <input type="password" value={disableWith} onChange={(e) => setDisableWith(e.target.value)} autoComplete="current-password" required />
          </label>
          <div>
            <SubmitButton busy={disable.busy} className="danger">Turn MFA off</SubmitButton>
          </div>
        </form>
      )}
    </section>
  )
}

const AccountPage = () => {
  const { me } = useSession()
  const scoped = me.scoped
  return (
    <section className="stack">
      <h1>My account</h1>
      <dl className="kv card">
        <dt>Username</dt>
        <dd>{me.user.username}</dd>
        <dt>Role</dt>
        <dd>{me.user.role}</dd>
        <dt>Permissions</dt>
        <dd>{me.permissions.length === 0 ? "none everywhere" : me.permissions.join(", ")}</dd>
        {scoped.length > 0 && (
          <>
            <dt>On some servers</dt>
            <dd>{scoped.map((s) => `${s.permission} (${s.servers.length} server${s.servers.length === 1 ? "" : "s"})`).join(", ")}</dd>
          </>
        )}
      </dl>
      <ChangePassword />
      <Mfa />
    </section>
  )
}

export default AccountPage
