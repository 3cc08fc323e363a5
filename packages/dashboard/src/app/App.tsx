/**
 * The app: first-run setup, sign-in (with the MFA step), the forced password
 * change, then the shell (navigation, theme, notifications, sign-out) around
 * the page the path names. A public page (`PageRoute.public`: the VIP
 * store's) is shown in a plain frame instead, whoever is signed in or not;
 * its sign-in button shows the sign-in form, then the page again.
 */
import { Suspense, useCallback, useEffect, useMemo, useState } from "react"
import { api, ApiError, onApiError } from "../api/client.js"
import { ChangePasswordRequest, LoginRequest, type MeResponse, SetupAdminRequest } from "../../../plugins/src/accounts/contract/Api.js"
import { EMPTY_CHANGE, type PasswordChange, PasswordFields } from "../../../plugins/src/accounts/ui/PasswordFields.js"
import { ActionButton, Spinner, SubmitButton, useFeedback, useSubmit } from "../ui/feedback.js"
import { type PublicSession, PublicSessionContext, ServerTabsContext } from "./extensions.js"
import { plugins } from "./plugins.js"
import { Link, matchPath, navigate, usePath } from "./router.js"
import { allowedAnywhere, SessionContext } from "./session.js"
import { applyTheme, storedTheme, systemTheme, type Theme } from "./theme.js"
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../../plugins/src/accounts/passwords/limits.js"

type Stage =
  | { readonly kind: "loading" }
  | { readonly kind: "setup" }
  | { readonly kind: "signed-out" }
  | { readonly kind: "change-password"; readonly me: MeResponse | undefined }
  | { readonly kind: "signed-in"; readonly me: MeResponse }
  | { readonly kind: "unreachable"; readonly message: string }

/** The public page at `path`, if one is: first match among the plugins' public routes. */
const publicPageAt = (path: string) => {
  for (const route of plugins.flatMap((p) => p.routes ?? [])) {
    if (route.public !== true) continue
    const params = matchPath(route.path, path)
    if (params !== undefined) return { route, params }
  }
  return undefined
}

export const App = () => {
  const [stage, setStage] = useState<Stage>({ kind: "loading" })
  const path = usePath()
  // A public page's visitor asked to sign in: the sign-in form, then that page again.
  const [signingIn, setSigningIn] = useState(false)
  const signIn = useCallback(() => setSigningIn(true), [])

  const resolve = useCallback(async () => {
    try {
      const setup = await api((c) => c.setup.status())
      if (setup.open) return setStage({ kind: "setup" })
      const me = await api((c) => c.session.me())
      setStage(me.user.mustChangePassword ? { kind: "change-password", me } : { kind: "signed-in", me })
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setStage({ kind: "signed-out" })
      else if (error instanceof ApiError && error.code === "password-change-required") setStage({ kind: "change-password", me: undefined })
      else setStage({ kind: "unreachable", message: error instanceof Error ? error.message : String(error) })
    }
  }, [])

  useEffect(() => {
    void resolve()
  }, [resolve])

  // A session that ends (expired, revoked, signed out elsewhere) or must change its password leaves the shell.
  useEffect(
    () =>
      onApiError((error) => {
        if (error.status === 401 && error.code !== "mfa-required") {
          setStage((current) => (current.kind === "signed-in" ? { kind: "signed-out" } : current))
        } else if (error.code === "password-change-required") {
          setStage((current) => (current.kind === "signed-in" ? { kind: "change-password", me: current.me } : current))
        }
      }),
    []
  )

  const publicPage = publicPageAt(path)
  if (publicPage !== undefined) {
    if (signingIn && stage.kind !== "signed-in") {
      return (
        <SignIn
          done={async () => {
            await resolve()
            setSigningIn(false)
          }}
          back={() => setSigningIn(false)}
        />
      )
    }
    return <PublicFrame page={publicPage} stage={stage} signIn={signIn} />
  }

  switch (stage.kind) {
    case "loading":
      return (
        <main className="center">
          <Spinner /> Loading…
        </main>
      )
    case "unreachable":
      return (
        <main className="center card narrow">
          <h1>Garrison</h1>
          <p role="alert">{stage.message}</p>
          <button type="button" onClick={() => void resolve()}>
            Try again
          </button>
        </main>
      )
    case "setup":
      return <Setup done={resolve} />
    case "signed-out":
      return <SignIn done={resolve} />
    case "change-password":
      return <ForcedPassword done={resolve} />
    case "signed-in":
      return <Shell me={stage.me} refresh={resolve} signedOut={() => setStage({ kind: "signed-out" })} />
  }
}

const Brand = () => (
  <div className="brand">
    <span className="brand-mark" aria-hidden="true">
      G
    </span>{" "}
    Garrison
  </div>
)

const Setup = ({ done }: { readonly done: () => Promise<void> }) => {
  const [username, setUsername] = useState("admin")
  const [password, setPassword] = useState("")
  const [repeat, setRepeat] = useState("")
  const feedback = useFeedback()
  const { busy, submit } = useSubmit(async () => {
    if (password !== repeat) throw new Error("the two passwords differ")
    await api((c) => c.setup.admin({ payload: new SetupAdminRequest({ username, password }) }))
    feedback.ok("Administrator created: sign in with it")
    await done()
  })
  return (
    <main className="center">
      <form className="card narrow stack" onSubmit={submit} aria-labelledby="setup-title">
        <Brand />
        <h1 id="setup-title">First-run setup</h1>
        <p>No user exists yet. Create the first administrator.</p>
        <label>
          Username
          <input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="username" required />
        </label>
        <label>
          Password ({MIN_PASSWORD_LENGTH} to {MAX_PASSWORD_LENGTH} characters)
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} maxLength={MAX_PASSWORD_LENGTH} required />
        </label>
        <label>
          Repeat the password
          <input type="password" value={repeat} onChange={(e) => setRepeat(e.target.value)} autoComplete="new-password" required />
        </label>
        <SubmitButton busy={busy}>Create administrator</SubmitButton>
      </form>
    </main>
  )
}

const SignIn = ({ done, back }: { readonly done: () => Promise<void>; readonly back?: () => void }) => {
  const [username, setUsername] = useState("")
  const [password, setPassword] = useState("")
  const [code, setCode] = useState("")
  const [needsCode, setNeedsCode] = useState(false)
  const [problem, setProblem] = useState<string | undefined>()
  const { busy, submit } = useSubmit(async () => {
    setProblem(undefined)
    try {
      await api((c) => c.auth.login({ payload: new LoginRequest({ username, password, ...(needsCode ? { code } : {}) }) }))
    } catch (error) {
      if (error instanceof ApiError && error.code === "mfa-required") {
        setNeedsCode(true)
        return
      }
      if (error instanceof ApiError) {
        setProblem(error.status === 429 && error.retryAfter !== undefined ? `${error.message} (try again in ${error.retryAfter} s)` : error.message)
        return
      }
      throw error
    }
    await done()
  })
  return (
    <main className="center">
      <form className="card narrow stack" onSubmit={submit} aria-labelledby="signin-title">
        <Brand />
        <h1 id="signin-title">{needsCode ? "Two-step verification" : "Sign in"}</h1>
        {!needsCode && (
          <>
            <label>
              Username
              <input name="username" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="username" required autoFocus />
            </label>
            <label>
              Password
              <input name="password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" required />
            </label>
          </>
        )}
        {needsCode && (
          <label>
            Code from your authenticator app, or a recovery code
            <input name="code" value={code} onChange={(e) => setCode(e.target.value.trim())} autoComplete="one-time-code" inputMode="text" required autoFocus />
          </label>
        )}
        {problem !== undefined && (
          <p className="notice error" role="alert">
            {problem}
          </p>
        )}
        <SubmitButton busy={busy} busyLabel="Signing in">{needsCode ? "Verify" : "Sign in"}</SubmitButton>
        {needsCode && (
          <button type="button" className="link" onClick={() => (setNeedsCode(false), setCode(""))}>
            Back
          </button>
        )}
        {!needsCode && back !== undefined && (
          <button type="button" className="link" onClick={back}>
            Back to the page
          </button>
        )}
      </form>
    </main>
  )
}

export const ForcedPassword = ({ done }: { readonly done: () => Promise<void> }) => {
  const [change, setChange] = useState<PasswordChange>(EMPTY_CHANGE)
  const feedback = useFeedback()
  const { busy, submit } = useSubmit(async () => {
    if (change.next !== change.repeat) throw new Error("the two new passwords differ")
    await api((c) =>
      c.auth.changePasswordForced({ payload: new ChangePasswordRequest({ currentPassword: change.current, newPassword: change.next }) })
    )
    feedback.ok("Password changed")
    await done()
  })
  return (
    <main className="center">
      <form className="card narrow stack" onSubmit={submit} aria-labelledby="forced-title">
        <Brand />
        <h1 id="forced-title">Choose a new password</h1>
        <p>Your password must be changed before you continue.</p>
        <PasswordFields value={change} onChange={setChange} />
        <SubmitButton busy={busy}>Change password</SubmitButton>
        <button type="button" className="link" onClick={() => void api((c) => c.auth.logout()).finally(() => void done())}>
          Sign out
        </button>
      </form>
    </main>
  )
}

const ThemeToggle = () => {
  const [theme, setTheme] = useState<Theme>(() => storedTheme() ?? systemTheme())
  return (
    <button
      type="button"
      className="icon"
      aria-label={theme === "dark" ? "Switch to light theme" : "Switch to dark theme"}
      title={theme === "dark" ? "Light theme" : "Dark theme"}
      onClick={() => {
        const next = theme === "dark" ? "light" : "dark"
        applyTheme(next)
        setTheme(next)
      }}
    >
      {theme === "dark" ? "☀" : "☾"}
    </button>
  )
}

/** A public page in a plain frame: the brand, the theme, and a sign-in button or the way to the dashboard. */
const PublicFrame = ({
  page,
  stage,
  signIn
}: {
  readonly page: NonNullable<ReturnType<typeof publicPageAt>>
  readonly stage: Stage
  readonly signIn: () => void
}) => {
  const { route, params } = page
  useEffect(() => {
    document.title = `${route.title} · Garrison`
  }, [route.title])
  const session = useMemo<PublicSession>(
    () => ({
      signedIn: stage.kind === "loading" ? undefined : stage.kind === "signed-in" || stage.kind === "change-password",
      username: stage.kind === "signed-in" ? stage.me.user.username : undefined,
      signIn
    }),
    [stage, signIn]
  )
  return (
    <PublicSessionContext.Provider value={session}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Brand />
        <div className="spacer" />
        <ThemeToggle />
        {session.signedIn === true ? (
          <Link to="/servers" className="user-link">
            Dashboard{session.username === undefined ? "" : ` (${session.username})`}
          </Link>
        ) : session.signedIn === false ? (
          <button type="button" className="quiet" onClick={signIn}>
            Sign in
          </button>
        ) : null}
      </header>
      <main id="main" className="content public-page" tabIndex={-1}>
        <Suspense
          fallback={
            <div className="loading">
              <Spinner /> Loading…
            </div>
          }
        >
          <route.component params={params} />
        </Suspense>
      </main>
    </PublicSessionContext.Provider>
  )
}

const Shell = ({ me, refresh, signedOut }: { readonly me: MeResponse; readonly refresh: () => Promise<void>; readonly signedOut: () => void }) => {
  const path = usePath()
  const [menuOpen, setMenuOpen] = useState(false)
  const can = (anyOf: ReadonlyArray<string> | undefined) => anyOf === undefined || anyOf.some((p) => allowedAnywhere(me, p))
  const nav = useMemo(
    () =>
      plugins
        .flatMap((p) => p.nav ?? [])
        .filter((entry) => can(entry.anyOf))
        .sort((a, b) => a.order - b.order),
    [me]
  )
  const routes = useMemo(() => plugins.flatMap((p) => p.routes ?? []), [])
  const tabs = useMemo(() => plugins.flatMap((p) => p.serverTabs ?? []).sort((a, b) => a.order - b.order), [])
  const headers = plugins.flatMap((p) => (p.header === undefined ? [] : [p.header]))

  useEffect(() => {
    if (path === "/" || path === "") navigate("/servers", { replace: true })
    setMenuOpen(false)
  }, [path])

  let page: { Component: (typeof routes)[number]["component"]; params: Record<string, string>; title: string } | undefined
  for (const route of routes) {
    const params = matchPath(route.path, path)
    if (params !== undefined && can(route.anyOf)) {
      page = { Component: route.component, params, title: route.title }
      break
    }
  }
  useEffect(() => {
    document.title = page === undefined ? "Garrison" : `${page.title} · Garrison`
  }, [page?.title])

  const session = useMemo(
    () => ({
      me,
      refresh,
      signOut: async () => {
        await api((c) => c.auth.logout())
        signedOut()
      }
    }),
    [me, refresh, signedOut]
  )

  return (
    <SessionContext.Provider value={session}>
      <ServerTabsContext.Provider value={tabs}>
        <a className="skip" href="#main">
          Skip to content
        </a>
        <header className="topbar">
          <button type="button" className="icon menu-button" aria-expanded={menuOpen} aria-controls="nav" aria-label="Menu" onClick={() => setMenuOpen(!menuOpen)}>
            ☰
          </button>
          <Link to="/servers" className="brand-link">
            <Brand />
          </Link>
          <div className="spacer" />
          {headers.map((Header, i) => (
            <Suspense key={i} fallback={null}>
              <Header />
            </Suspense>
          ))}
          <ThemeToggle />
          <Link to="/account" className="user-link" aria-label={`Account: ${me.user.username}`}>
            {me.user.username}
          </Link>
          <ActionButton run={session.signOut} className="quiet">
            Sign out
          </ActionButton>
        </header>
        <div className="layout">
          <nav id="nav" className={menuOpen ? "nav open" : "nav"} aria-label="Main">
            <ul>
              {nav.map((entry) => (
                <li key={entry.path}>
                  <Link to={entry.path} aria-current={path === entry.path || path.startsWith(entry.path + "/") ? "page" : undefined}>
                    {entry.label}
                  </Link>
                </li>
              ))}
              <li>
                <Link to="/account" aria-current={path === "/account" ? "page" : undefined}>
                  My account
                </Link>
              </li>
            </ul>
          </nav>
          <main id="main" className="content" tabIndex={-1}>
            <Suspense
              fallback={
                <div className="loading">
                  <Spinner /> Loading…
                </div>
              }
            >
              {page === undefined ? (
                <section>
                  <h1>Not found</h1>
                  <p>There is no page at {path}, or you may not open it.</p>
                  <Link to="/servers">Servers</Link>
                </section>
              ) : (
                <page.Component params={page.params} />
              )}
            </Suspense>
          </main>
        </div>
      </ServerTabsContext.Provider>
    </SessionContext.Provider>
  )
}
