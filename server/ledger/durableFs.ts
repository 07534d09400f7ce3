// Durability helpers shared by the ledger's writers.
import fs from "node:fs";

/** Makes a new directory entry (a created or renamed file) durable where the platform allows it. */
export function fsyncDirectory(directory: string): void {
  try {
    const fd = fs.openSync(directory, "r");
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not every platform can fsync a directory; the file itself is already durable.
  }
}

/** Opens `file` with `flags`, writes all of `text`, fsyncs and closes: the bytes are durable on return. */
export function writeDurably(file: string, flags: "a" | "wx", text: string): void {
  const fd = fs.openSync(file, flags, 0o644);
  try {
    const bytes = Buffer.from(text, "utf8");
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
