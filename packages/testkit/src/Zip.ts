/** Reading a whole zip in a test (a downloaded backup): every file's bytes by entry name, folders left out. */
import * as Yauzl from "yauzl"

export const unzipEntries = (bytes: Uint8Array): Promise<Map<string, Buffer>> =>
  new Promise((resolve, reject) => {
    Yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true }, (error, zip) => {
      if (error !== null || zip === undefined) return reject(error ?? new Error("not a zip"))
      const files = new Map<string, Buffer>()
      zip.on("error", reject)
      zip.on("entry", (entry: Yauzl.Entry) => {
        if (entry.fileName.endsWith("/")) return zip.readEntry()
        zip.openReadStream(entry, (e, stream) => {
          if (e !== null || stream === undefined) return reject(e ?? new Error(`cannot read ${entry.fileName}`))
          const chunks: Array<Buffer> = []
          stream.on("data", (c: Buffer) => chunks.push(c))
          stream.on("error", reject)
          stream.on("end", () => {
            files.set(entry.fileName, Buffer.concat(chunks))
            zip.readEntry()
          })
        })
      })
      zip.on("end", () => resolve(files))
      zip.readEntry()
    })
  })
