/** Roles (admin): permissions granted everywhere or on some servers only (per-server scopes). */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { NewRoleRequest, type PermissionView, RolePatchRequest, type RoleView } from "../contract/Api.js"

type Grant = RoleView["permissions"][number]

interface ServerOption {
  readonly id: string
  readonly name: string
}

/** One row per permission: not granted, everywhere, or on the servers picked. */
const GrantsEditor = ({
  grants,
  onChange,
  permissions,
  servers,
  disabled
}: {
  readonly grants: ReadonlyArray<Grant>
  readonly onChange: (grants: ReadonlyArray<Grant>) => void
  /** What the loaded plugins declare (`GET /api/permissions`). */
  readonly permissions: ReadonlyArray<PermissionView>
  readonly servers: ReadonlyArray<ServerOption>
  readonly disabled?: boolean
}) => {
  const scopeOf = (name: string): "none" | "all" | ReadonlyArray<string> => {
    for (const grant of grants) {
      if (grant === name) return "all"
      if (typeof grant !== "string" && grant.permission === name) return grant.servers
    }
    return "none"
  }
  const set = (name: string, scope: "none" | "all" | ReadonlyArray<string>) => {
    const rest = grants.filter((g) => (typeof g === "string" ? g !== name : g.permission !== name))
    onChange(scope === "none" ? rest : scope === "all" ? [...rest, name] : scope.length === 0 ? rest : [...rest, { permission: name, servers: [...scope] }])
  }
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Permission</th>
            <th scope="col">Granted</th>
          </tr>
        </thead>
        <tbody>
          {permissions.map((permission) => {
            const scope = scopeOf(permission.name)
            const mode = scope === "none" ? "none" : scope === "all" ? "all" : "some"
            return (
              <tr key={permission.name}>
                <td>
                  <code>{permission.name}</code>
                  <div className="muted">{permission.description}</div>
                </td>
                <td>
                  <select
                    aria-label={`Grant ${permission.name}`}
                    value={mode}
                    disabled={disabled}
                    onChange={(e) => set(permission.name, e.target.value === "some" ? (servers[0] === undefined ? "none" : [servers[0].id]) : (e.target.value as "none" | "all"))}
                  >
                    <option value="none">No</option>
                    <option value="all">On every server</option>
                    {permission.name !== "admin" && <option value="some">On some servers</option>}
                  </select>
                  {typeof scope !== "string" && (
                    <fieldset>
                      <legend className="sr-only">Servers for {permission.name}</legend>
                      {servers.map((server) => (
                        <label key={server.id} className="inline">
                          <input
                            type="checkbox"
                            disabled={disabled}
                            checked={scope.includes(server.id)}
                            onChange={(e) => set(permission.name, e.target.checked ? [...scope, server.id] : scope.filter((id) => id !== server.id))}
                          />
                          {server.name}
                        </label>
                      ))}
                      {scope.filter((id) => !servers.some((s) => s.id === id)).map((id) => (
                        <span key={id} className="badge">
                          {id} (deleted server)
                        </span>
                      ))}
                    </fieldset>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

const RoleCard = ({
  role,
  permissions,
  servers,
  reload
}: {
  readonly role: RoleView
  readonly permissions: ReadonlyArray<PermissionView>
  readonly servers: ReadonlyArray<ServerOption>
  readonly reload: () => Promise<void>
}) => {
  const [grants, setGrants] = useState<ReadonlyArray<Grant>>(role.permissions)
  const [description, setDescription] = useState(role.description)
  const [open, setOpen] = useState(false)
  const changed = JSON.stringify(grants) !== JSON.stringify(role.permissions) || description !== role.description
  const isAdmin = role.name === "admin"
  return (
    <section className="card stack" aria-labelledby={`role-${role.id}`}>
      <div className="row">
        <h2 id={`role-${role.id}`}>{role.name}</h2>
        {role.builtIn && <span className="badge">built-in</span>}
        <div className="spacer" />
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? "Close" : "Edit"}
        </button>
        {!role.builtIn && (
          <ActionButton
            className="danger"
            run={() => api((c) => c.roles.remove({ path: { id: role.id } })).then(reload)}
            confirm={{ title: `Delete role ${role.name}?`, confirmLabel: "Delete", danger: true }}
            done="Role deleted"
          >
            Delete
          </ActionButton>
        )}
      </div>
      <p className="muted">{role.description || "No description"}</p>
      <p>
        {role.permissions.length === 0
          ? "No permissions"
          : role.permissions.map((g) => (typeof g === "string" ? g : `${g.permission} on ${g.servers.length} server${g.servers.length === 1 ? "" : "s"}`)).join(", ")}
      </p>
      {open && (
        <>
          <label>
            Description
            <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} />
          </label>
          <GrantsEditor grants={grants} onChange={setGrants} permissions={permissions} servers={servers} disabled={isAdmin} />
          <div>
            <ActionButton
              className="primary"
              disabled={!changed}
              run={() => api((c) => c.roles.update({ path: { id: role.id }, payload: new RolePatchRequest({ description, permissions: [...grants] }) })).then(reload)}
              done="Role saved"
            >
              Save role
            </ActionButton>
          </div>
        </>
      )}
    </section>
  )
}

const RolesPage = () => {
  const roles = useResource(() => api((c) => c.roles.list({ urlParams: { limit: 1000 } })), [])
  const servers = useResource(() => api((c) => c.servers.list({ urlParams: {} })), [])
  const catalog = useResource(() => api((c) => c.roles.permissions()), [])
  const permissions = catalog.data?.items ?? []
  const serverOptions = servers.data?.items.map((s) => ({ id: s.id, name: s.name })) ?? []
  const [name, setName] = useState("")
  const [description, setDescription] = useState("")
  const [grants, setGrants] = useState<ReadonlyArray<Grant>>([])
  const create = useSubmit(async () => {
    await api((c) => c.roles.create({ payload: new NewRoleRequest({ name, description, permissions: [...grants] }) }))
    setName("")
    setDescription("")
    setGrants([])
    await roles.reload()
  }, "Role created")
  return (
    <section className="stack">
      <h1>Roles</h1>
      <Loaded resource={roles}>{(page) => page.items.map((role) => <RoleCard key={role.id + role.updatedAt} role={role} permissions={permissions} servers={serverOptions} reload={roles.reload} />)}</Loaded>
      <form className="card stack" onSubmit={create.submit} aria-labelledby="new-role">
        <h2 id="new-role">New role</h2>
        <div className="grid">
          <label>
            Name
            <input value={name} onChange={(e) => setName(e.target.value.toLowerCase())} pattern="[a-z0-9][a-z0-9._\-]{0,63}" required />
          </label>
          <label>
            Description
            <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} />
          </label>
        </div>
        <GrantsEditor grants={grants} onChange={setGrants} permissions={permissions} servers={serverOptions} />
        <div>
          <SubmitButton busy={create.busy}>Create role</SubmitButton>
        </div>
      </form>
    </section>
  )
}

export default RolesPage
