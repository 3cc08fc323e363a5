/**
 * Secrets masked by content, in both syntaxes and any spelling of the key;
 * empty values left alone; a masked text written back gets each value
 * again, in order, and a mask with nothing behind it is named by line.
 */
import { describe, expect, it } from "@effect/vitest"
import { maskSecrets, unmaskSecrets } from "../../src/game/SecretMasks.js"

describe("maskSecrets", () => {
  it("masks serverDZ.cfg's passwords and BattlEye's RConPassword, keeping everything else byte for byte", () => {
    const config = 'hostname = "A;B";\r\npassword = "p;w";  // join\r\n\tPASSWORDADMIN="x" ;\r\npasswordAdminX = "not a secret";\r\npassword = "";\r\n'
    expect(maskSecrets(config)).toEqual({
      text: 'hostname = "A;B";\r\npassword = "********";  // join\r\n\tPASSWORDADMIN="********" ;\r\npasswordAdminX = "not a secret";\r\npassword = "";\r\n',
      masked: ["password", "PASSWORDADMIN"]
    })
    expect(maskSecrets("RConPassword  s3cret x\nRConPort 2306\nrconpassword y\n")).toEqual({
      text: "RConPassword  ********\nRConPort 2306\nrconpassword ********\n",
      masked: ["RConPassword", "rconpassword"]
    })
    expect(maskSecrets("<types>\n  <type name=\"password\"/>\n</types>\n").masked).toEqual([])
  })
})

describe("unmaskSecrets", () => {
  it("puts each value back where the mask is, the n-th mask of a key getting the n-th value", () => {
    const current = 'password = "one";\npassword = "two";\nRConPassword three\n'
    const edited = 'password = "********";\nmaxPlayers = 10;\npassword = "********";\nRConPassword ********\n'
    expect(unmaskSecrets(edited, current)).toEqual({ text: 'password = "one";\nmaxPlayers = 10;\npassword = "two";\nRConPassword three\n' })
    expect(unmaskSecrets('password = "new";\n', current)).toEqual({ text: 'password = "new";\n' })
    expect(unmaskSecrets('a = 1;\npasswordAdmin = "********";\n', current)).toEqual({ problem: { key: "passwordAdmin", line: 2 } })
  })
})
