/**
 * The password policy, one for every password a person chooses: the first
 * admin from ADMIN_PASSWORD, `POST /api/setup/admin`, a user created or
 * given a password by an admin (`POST /api/users`, `PATCH /api/users/:id`,
 * `garrison user create --password-stdin`), and the user's own change
 * (`POST /api/auth/change-password-forced`). Passwords the controller makes
 * itself (`generatePassword`: first-start and reset one-time passwords,
 * restored users) are random and skip it.
 *
 * A password is refused, in this order, when:
 *
 * 1. it is not 8 to 128 characters (code points) long;
 * 2. it contains the username (ignoring case; usernames of 3 characters or
 *    more, since a shorter one is found inside too many good passwords);
 * 3. zxcvbn scores it below 3 of 4 (`MIN_STRENGTH`). zxcvbn-ts estimates
 *    the guesses a cracker needs from its bundled lists: about 30,000 of the
 *    passwords most seen in breach corpora, English words, names and
 *    Wikipedia terms, plus keyboard rows, repeats, sequences, dates and l33t
 *    spellings, and "garrison" itself. Score 3 means about 10^8 guesses or
 *    more ("safely unguessable" for an online attack, which sign-in lockout
 *    already slows); 4 is 10^10. The lists ship in the packages: no network.
 *
 * Each refusal says why in plain words ("this password is among the most
 * common ones", "it contains your username", what to change), naming the
 * request field it came in (`PasswordRejected.field`).
 *
 * zxcvbn's dictionaries are several megabytes: they are loaded on the first
 * password checked, not at start-up (the controller's bundle lists the
 * packages in LAZY_MODULES, packages/http/scripts/bundleSettings.mjs). The
 * start-up check of ADMIN_PASSWORD runs in a worker thread that ends with
 * it, so a start with it set keeps the controller's memory as it was.
 */
import * as Effect from "effect/Effect"
import { Worker } from "node:worker_threads"
import { PasswordRejected } from "../errors.js"
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./limits.js"

/** The lowest zxcvbn score (0 to 4) a chosen password may have. */
export const MIN_STRENGTH = 3

/** Usernames at least this long are looked for inside the password. */
const USERNAME_MATCH_MIN = 3

/** Words anyone attacking this controller would try first. */
const SITE_WORDS = ["garrison"]

export const LENGTH_RULE = `passwords are ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters long`

/** Who the password is for, and the request field (or setting) it came in. */
export interface PolicySubject {
  readonly username: string
  readonly field: string
}

/** Length in characters (code points), so an emoji counts once. */
export const lengthProblem = (password: string): string | undefined => {
  const length = [...password].length
  return length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH ? LENGTH_RULE : undefined
}

/** Whether `password` contains `username`, ignoring case (usernames of 3 characters or more). */
export const containsUsername = (password: string, username: string): boolean => {
  const name = username.trim().toLowerCase()
  return name.length >= USERNAME_MATCH_MIN && password.toLowerCase().includes(name)
}

// zxcvbn's feedback in the controller's words: lower case, no full stop, said of "this password".
const WARNINGS = {
  straightRow: "it is a straight row of keys on the keyboard",
  keyPattern: "it is a short keyboard pattern",
  simpleRepeat: 'it repeats one character ("aaa")',
  extendedRepeat: 'it repeats a group of characters ("abcabc")',
  sequences: 'it is a common sequence ("abc", "123")',
  recentYears: "it is a recent year",
  dates: "it is a date",
  topTen: "this password is among the most common ones",
  topHundred: "this password is among the most common ones",
  common: "this password is among the most common ones",
  similarToCommon: "this password is one of the most common ones with small changes",
  wordByItself: "a single word is easy to guess",
  namesByThemselves: "a single name or surname is easy to guess",
  commonNames: "common names and surnames are easy to guess",
  userInputs: "it contains your username or the name Garrison",
  pwned: "this password appears in data breaches"
} as const

const SUGGESTIONS = {
  l33t: "swapping letters for look-alikes ('@' for 'a') does not help",
  reverseWords: "a common word spelt backwards does not help",
  allUppercase: "capitalise some letters, not all",
  capitalization: "capitalise more than the first letter",
  dates: "leave out dates and years that are about you",
  recentYears: "leave out recent years",
  associatedYears: "leave out years that are about you",
  sequences: "leave out common sequences",
  repeated: "leave out repeated words and characters",
  longerKeyboardPattern: "use longer keyboard patterns that change direction",
  anotherWord: "add more words that are less common",
  useWords: "use several words, not a common phrase",
  noNeed: "a few uncommon words make a strong password without symbols or digits",
  pwned: "if you use it elsewhere, change it there too"
} as const

interface Estimate {
  readonly score: number
  readonly feedback: { readonly warning: string | null; readonly suggestions: ReadonlyArray<string> }
}

let estimator: Promise<(password: string, userInputs: Array<string>) => Estimate> | undefined

/** zxcvbn with the common and English lists, loaded on first use and kept. */
const loadEstimator = () =>
  (estimator ??= Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common"), import("@zxcvbn-ts/language-en")]).then(
    ([core, common, en]) => {
      const zxcvbn = new core.ZxcvbnFactory({
        // Copied into plain objects: in the bundle each export is a lazy proxy (lazyModules.mjs).
        dictionary: { ...common.dictionary, ...en.dictionary },
        graphs: { ...common.adjacencyGraphs },
        translations: { ...en.translations, warnings: WARNINGS, suggestions: SUGGESTIONS },
        // Checking is quadratic in the length: 64 characters are enough to judge, and take ~100 ms at most.
        maxLength: 64
      })
      return (password: string, userInputs: Array<string>) => zxcvbn.check(password, userInputs)
    },
    (cause: unknown) => {
      estimator = undefined
      throw cause
    }
  ))

// The same estimate in a worker thread that ends with it: loading and ranking the lists costs ~75 MB and
// ~0.5 s, which a start with ADMIN_PASSWORD set (every start, where it is left in the environment) should
// not keep. CommonJS, evaluated; `from` is where the packages are resolved from.
const ISOLATED = `
const { workerData, parentPort } = require("node:worker_threads")
const load = require("node:module").createRequire(workerData.from)
const [core, common, en] = ["@zxcvbn-ts/core", "@zxcvbn-ts/language-common", "@zxcvbn-ts/language-en"].map((name) => load(name))
const zxcvbn = new core.ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...en.dictionary },
  graphs: common.adjacencyGraphs,
  translations: { ...en.translations, warnings: workerData.warnings, suggestions: workerData.suggestions },
  maxLength: 64
})
const { score, feedback } = zxcvbn.check(workerData.password, workerData.userInputs)
parentPort.postMessage({ score, feedback: { warning: feedback.warning, suggestions: feedback.suggestions } })
`

const estimateIsolated = (password: string, userInputs: Array<string>): Promise<Estimate> =>
  new Promise((resolve, reject) => {
    const worker = new Worker(ISOLATED, {
      eval: true,
      workerData: { from: import.meta.url, password, userInputs, warnings: WARNINGS, suggestions: SUGGESTIONS }
    })
    worker.once("message", (estimate: Estimate) => {
      resolve(estimate)
      void worker.terminate()
    })
    worker.once("error", reject)
    worker.once("exit", (code) => reject(new Error(`the password check's worker exited with code ${code}`)))
  })

/**
 * Why zxcvbn finds `password` too easy to guess, or undefined when it scores `MIN_STRENGTH` or more.
 * `isolated`: in a worker thread that takes the lists' memory with it (the start-up check of
 * ADMIN_PASSWORD); otherwise the lists are loaded here once and kept.
 */
export const strengthProblem = (password: string, username: string, options: { readonly isolated?: boolean } = {}): Effect.Effect<string | undefined> =>
  Effect.map(
    // Invariant: the packages are dependencies of this one; failing to load them is a broken install, a defect.
    Effect.orDie(
      Effect.tryPromise(() => {
        const userInputs = [...SITE_WORDS, username]
        return options.isolated === true ? estimateIsolated(password, userInputs) : loadEstimator().then((check) => check(password, userInputs))
      })
    ),
    ({ score, feedback }) => {
      if (score >= MIN_STRENGTH) return undefined
      const reasons = [feedback.warning ?? "it is too easy to guess", ...feedback.suggestions]
      return `${reasons.join("; ")} (strength ${score} of 4, at least ${MIN_STRENGTH} needed)`
    }
  )

/** The password when the policy allows it, else `PasswordRejected` naming `subject.field` and the reason. */
export const checkPolicy = (
  password: string,
  subject: PolicySubject,
  options: { readonly isolated?: boolean } = {}
): Effect.Effect<string, PasswordRejected> =>
  Effect.gen(function* () {
    const refuse = (message: string) => new PasswordRejected({ field: subject.field, message })
    const length = lengthProblem(password)
    if (length !== undefined) return yield* refuse(length)
    if (containsUsername(password, subject.username)) return yield* refuse("it contains your username")
    const weak = yield* strengthProblem(password, subject.username, options)
    if (weak !== undefined) return yield* refuse(weak)
    return password
  })
