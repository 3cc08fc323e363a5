/**
 * Credentials Garrison must keep in clear to use them (RCON passwords, MFA
 * secrets) are sealed at rest with AES-256-GCM under a key in
 * `<data>/secrets/<name>.key`, so a copy of the database or of a backup alone
 * hands none of them out.
 *
 * A sealed value reads `sealed:v1:<keyId>:<iv>:<ciphertext>:<tag>` (base64url
 * parts): a reader tells sealed from clear by the prefix, and the key id (a
 * fingerprint of the key, not the key) says which key sealed it, so a wrong
 * key is named as such and keys can be rotated later. The `context` (e.g. the
 * owning user's or server's id) is authenticated data: a value moved to
 * another row does not open.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"
import { Secrets, type SecretSpec } from "../config/DataDir.js"
import type { StartupError } from "../kernel/StartupError.js"

export const SEALED_PREFIX = "sealed:v1:"

/** A key file and what it protects; `spec.bytes` must be 32 (AES-256). */
export interface SealingKey {
  readonly name: string
  readonly spec: SecretSpec & { readonly bytes: 32; readonly exact: true }
}

/** Why a value did not open: not sealed at all, sealed with another key, or altered / moved to another context. */
export type OpenFailure = "not-sealed" | "other-key" | "tampered"

export interface SealedBox {
  /** Fingerprint of this box's key, as it appears in the values it seals. */
  readonly keyId: string
  readonly seal: (plaintext: string, context: string) => string
  readonly open: (sealed: string, context: string) => Either.Either<string, OpenFailure>
}

export interface SealedSecretsShape {
  /**
   * The box for `key`, its key file read (created on first use) and checked.
   * When the caller knows sealed values are stored (`sealedValuesExist`), a
   * missing key file is not replaced but stops the start with one line: a new
   * key could open none of them.
   */
  readonly box: (
    key: SealingKey,
    options?: { readonly sealedValuesExist?: boolean; readonly sealedWhat?: string }
  ) => Effect.Effect<SealedBox, StartupError>
}

export const isSealed = (value: string): boolean => value.startsWith(SEALED_PREFIX)

/** First 8 base64url characters of SHA-256 over a label and the key: identifies a key without revealing it. */
export const keyIdOf = (key: Uint8Array): string =>
  createHash("sha256").update("garrison-sealing-key-id\0").update(key).digest("base64url").slice(0, 8)

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")

export const sealWith = (key: Uint8Array, plaintext: string, context: string): string => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  cipher.setAAD(Buffer.from(context))
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  return `${SEALED_PREFIX}${[keyIdOf(key), b64(iv), b64(body), b64(cipher.getAuthTag())].join(":")}`
}

const decrypt = (key: Uint8Array, context: string, iv: string, body: string, tag: string): Either.Either<string, OpenFailure> => {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
    decipher.setAAD(Buffer.from(context))
    decipher.setAuthTag(Buffer.from(tag, "base64url"))
    return Either.right(Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8"))
  } catch {
    return Either.left("tampered")
  }
}

/**
 * Opens a value sealed by `sealWith`, and also the format the MFA box wrote
 * before this module existed (`v1.<iv>.<body>.<tag>`: same cipher and
 * context, no prefix or key id), so MFA secrets enrolled then stay readable.
 */
export const openWith = (key: Uint8Array, sealed: string, context: string): Either.Either<string, OpenFailure> => {
  if (isSealed(sealed)) {
    const [keyId, iv, body, tag, ...rest] = sealed.slice(SEALED_PREFIX.length).split(":")
    if (keyId === undefined || iv === undefined || body === undefined || tag === undefined || rest.length > 0) {
      return Either.left("tampered")
    }
    if (keyId !== keyIdOf(key)) return Either.left("other-key")
    return decrypt(key, context, iv, body, tag)
  }
  const [version, iv, body, tag, ...rest] = sealed.split(".")
  if (version !== "v1" || iv === undefined || body === undefined || tag === undefined || rest.length > 0) {
    return Either.left("not-sealed")
  }
  return decrypt(key, context, iv, body, tag)
}

export class SealedSecrets extends Context.Tag("@garrison/runtime/SealedSecrets")<SealedSecrets, SealedSecretsShape>() {
  static readonly layer: Layer.Layer<SealedSecrets, never, Secrets> = Layer.effect(
    SealedSecrets,
    Effect.map(Secrets, (secrets) =>
      SealedSecrets.of({
        box: (key, options = {}) =>
          (options.sealedValuesExist === true
            ? secrets.require(key.name, key.spec, {
                missing: `the database holds ${options.sealedWhat ?? "values"} sealed with it`
              })
            : secrets.require(key.name, key.spec)
          ).pipe(
            Effect.map((bytes) => ({
              keyId: keyIdOf(bytes),
              seal: (plaintext, context) => sealWith(bytes, plaintext, context),
              open: (sealed, context) => openWith(bytes, sealed, context)
            }))
          )
      })
    )
  )
}
