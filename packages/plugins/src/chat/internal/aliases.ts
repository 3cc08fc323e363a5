/**
 * Other spellings of an action a bot author may send: the spec's example
 * names `server.restart`, the table `restart`. Each alias runs, is
 * permitted, cooled down and audited as the action it names.
 */
const ALIASES: Readonly<Record<string, string>> = {
  "server.status": "status",
  "server.list": "servers",
  "server.start": "start",
  "server.stop": "stop",
  "server.restart": "restart",
  "server.lock": "lock",
  "server.unlock": "unlock",
  "server.rcon": "rcon",
  "server.message": "message",
  "players.list": "players",
  "players.kick": "kick"
}

/** The action's table name. */
export const canonicalAction = (action: string): string => (Object.hasOwn(ALIASES, action) ? ALIASES[action]! : action)
