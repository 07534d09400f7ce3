// A command's request on stdin: bounded (larger is a usage error, read no further) and UTF-8.
import { UsageError } from "./args";

export function readStdinText(maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    process.stdin.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        process.stdin.destroy();
        reject(new UsageError(`the request on stdin is larger than ${maxBytes} bytes`, "docket.input-unreadable"));
        return;
      }
      chunks.push(chunk);
    });
    process.stdin.on("end", () => {
      try {
        resolve(new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks)));
      } catch {
        reject(new UsageError("the request on stdin is not UTF-8", "docket.input-unreadable"));
      }
    });
    process.stdin.on("error", (error) => reject(new UsageError(`stdin could not be read: ${error.message}`, "docket.input-unreadable")));
  });
}
