/** Users (admin): list, create, change role, disable, reset password, turn MFA off, delete. */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { useSession } from "@dashboard/app/session.js"
import { Loaded, formatTime, useResource } from "@dashboard/ui/data.js"
import { ActionButton, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { NewUserRequest, UserPatchRequest } from "../contract/Api.js"
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../passwords/limits.js"

const UsersPage = () => {
  const { me } = useSession()
  const users = useResource(() => api((c) => c.users.list({ urlParams: { limit: 1000 } })), [])
  const roles = useResource(() => api((c) => c.roles.list({ urlParams: { limit: 1000 } })), [])
  const roleNames = roles.data?.items.map((r) => r.name) ?? []
  const [username, setUsername] = useState("")
  const [password, setPassword] = useState("")
  const [role, setRole] = useState("moderator")
  const [mustChange, setMustChange] = useState(true)
  const create = useSubmit(async () => {
    await api((c) => c.users.create({ payload: new NewUserRequest({ username, password, role, mustChangePassword: mustChange }) }))
    setUsername("")
    setPassword("")
    await users.reload()
  }, "User created")

  const update = (id: string, payload: ConstructorParameters<typeof UserPatchRequest>[0]) =>
    api((c) => c.users.update({ path: { id }, payload: new UserPatchRequest(payload) })).then(() => users.reload())

  return (
    <section className="stack">
      <h1>Users</h1>
      <form className="card stack" onSubmit={create.submit} aria-labelledby="new-user">
        <h2 id="new-user">New user</h2>
        <div className="grid">
          <label>
            Username
            <input value={username} onChange={(e) => setUsername(e.target.value)} required autoComplete="off" />
          </label>
          <label>
            First password
            <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} minLength={MIN_PASSWORD_LENGTH} maxLength={MAX_PASSWORD_LENGTH} required autoComplete="new-password" />
          </label>
          <label>
            Role
            <select value={role} onChange={(e) => setRole(e.target.value)}>
              {roleNames.map((name) => (
                <option key={name}>{name}</option>
              ))}
            </select>
          </label>
        </div>
        <label className="inline">
          <input type="checkbox" checked={mustChange} onChange={(e) => setMustChange(e.target.checked)} /> Must choose a new password at first sign-in
        </label>
        <div>
          <SubmitButton busy={create.busy}>Create user</SubmitButton>
        </div>
      </form>
      <Loaded resource={users}>
        {(page) => (
          <div className="table-wrap">
            <table>
              <caption className="sr-only">Users</caption>
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Role</th>
                  <th scope="col">State</th>
                  <th scope="col" className="hide-narrow">Created</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((user) => (
                  <tr key={user.id}>
                    <td>{user.username}</td>
                    <td>
                      <select
                        aria-label={`Role of ${user.username}`}
                        value={user.role}
                        onChange={(e) => void update(user.id, { role: e.target.value }).catch(() => users.reload())}
                      >
                        {(roleNames.includes(user.role) ? roleNames : [user.role, ...roleNames]).map((name) => (
                          <option key={name}>{name}</option>
                        ))}
                      </select>
                    </td>
                    <td>
                      {user.disabled ? <span className="badge status-crashed">disabled</span> : <span className="badge">active</span>}{" "}
                      {user.mfaEnabled && <span className="badge">MFA</span>} {user.mustChangePassword && <span className="badge">must change password</span>}
                    </td>
                    <td className="hide-narrow">{formatTime(user.createdAt)}</td>
                    <td>
                      <div className="row">
                        <ActionButton
                          run={() => update(user.id, { disabled: !user.disabled })}
                          disabled={user.id === me.user.id}
                          confirm={user.disabled ? undefined : { title: `Disable ${user.username}?`, body: "Their sessions end now.", confirmLabel: "Disable", danger: true }}
                          done={user.disabled ? "User enabled" : "User disabled"}
                        >
                          {user.disabled ? "Enable" : "Disable"}
                        </ActionButton>
                        <ActionButton
                          run={async () => {
                            const password = window.prompt(`New password for ${user.username} (8 to 128 characters); they must change it at next sign-in`)
                            if (password === null || password === "") return
                            await update(user.id, { password, mustChangePassword: true })
                          }}
                          done="Password set"
                        >
                          Reset password
                        </ActionButton>
                        {user.mfaEnabled && (
                          <ActionButton
                            run={() => update(user.id, { mfaEnabled: false })}
                            confirm={{ title: `Turn MFA off for ${user.username}?`, body: "For a lost device: they can set it up again.", confirmLabel: "Turn off", danger: true }}
                            done="MFA turned off"
                          >
                            MFA off
                          </ActionButton>
                        )}
                        <ActionButton
                          className="danger"
                          disabled={user.id === me.user.id}
                          run={() => api((c) => c.users.remove({ path: { id: user.id } })).then(() => users.reload())}
                          confirm={{ title: `Delete ${user.username}?`, body: "Their sessions end and the account is gone.", confirmLabel: "Delete", danger: true }}
                          done="User deleted"
                        >
                          Delete
                        </ActionButton>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
    </section>
  )
}

export default UsersPage
