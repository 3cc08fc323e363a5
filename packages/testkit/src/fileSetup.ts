/**
 * A vitest setup file (`setupFiles: ["@garrison/testkit/fileSetup"]`): the
 * folders `tempDir` made go after each test file's tests. Needed only where
 * test files share modules (`isolate: false`); with isolation each file
 * loads the testkit afresh and this happens anyway.
 */
import { afterAll } from "vitest"
import { removeTempDirs } from "./TempDir.js"

afterAll(removeTempDirs)
