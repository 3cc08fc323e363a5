/**
 * A vitest setup file (`setupFiles: ["@garrison/testkit/fileSetup"]`): the
 * folders `tempDir` made go after each test file's tests, and so do, on
 * the PostgreSQL pass, the databases of data directories nobody uses any
 * more (`dropDataDirDatabases`; nothing to do on SQLite). Needed only where
 * test files share modules (`isolate: false`); with isolation each file
 * loads the testkit afresh and this happens anyway.
 */
import { afterAll } from "vitest"
import { removeTempDirs } from "./TempDir.js"
import { dropDataDirDatabases } from "./TestDatabase.js"

afterAll(async () => {
  removeTempDirs()
  await dropDataDirDatabases()
})
