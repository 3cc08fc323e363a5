export { tempDir } from "../../../../test/support/tempDir.js"
