/**
 * What a lookup's `{identifier}` names: a Steam64 (17 digits), a Steam2
 * (`STEAM_0:1:23`), a service id (a UUID), or a chat user id (a 15-20 digit
 * snowflake) linked to a player. A 17-digit number in the Steam64 range is
 * read as a Steam64.
 */
import * as Either from "effect/Either"
import { PlayerIds } from "@garrison/runtime"

export const IDENTIFIER_KINDS = ["steam64", "steam2", "service-id", "chat-user"] as const
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number]

export type Identifier =
  | { readonly kind: "steam64" | "steam2"; readonly steam64: string }
  | { readonly kind: "service-id"; readonly serviceId: string }
  | { readonly kind: "chat-user"; readonly chatUserId: string }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i
const STEAM2 = /^STEAM_[0-5]:[01]:\d{1,10}$/i
const SNOWFLAKE = /^\d{15,20}$/

export const ACCEPTED_KINDS_TEXT = "a Steam64 (17 digits), a Steam2 id (STEAM_0:1:23), a service id (UUID) or a linked chat user id (15-20 digits)"

export const readIdentifier = (input: string): Either.Either<Identifier, string> => {
  const text = input.trim()
  if (/^\d{17}$/.test(text) && PlayerIds.isSteam64(text)) return Either.right({ kind: "steam64", steam64: text })
  if (STEAM2.test(text)) {
    return Either.match(PlayerIds.fromSteam2(text.toUpperCase()), {
      onLeft: () => Either.left(`"${text.slice(0, 40)}" is not a valid Steam2 id`),
      onRight: (steam64) => Either.right({ kind: "steam2" as const, steam64 })
    })
  }
  if (UUID.test(text)) return Either.right({ kind: "service-id", serviceId: text.toLowerCase() })
  if (SNOWFLAKE.test(text)) return Either.right({ kind: "chat-user", chatUserId: text })
  return Either.left(`the identifier must be ${ACCEPTED_KINDS_TEXT}`)
}
