// A JavaScript stand-in for @vscode/spdlog. VS Code writes every log file and every Output channel (Docket's
// log included) through spdlog's native addon; code-server installed without compiling anything
// (scripts/e2e/toolchain.sh) has no addon, and then those files and views stay empty. toolchain.sh puts this
// package in code-server's lib/vscode/out/node_modules, which Node searches before lib/vscode/node_modules:
// it hands out the real addon when one was compiled (--with-logs), and otherwise writes the same lines itself.
// Only the API VS Code calls is provided; output is written synchronously, so flush() has nothing to do.
'use strict';

const fs = require('fs');
const path = require('path');

// __dirname is lib/vscode/out/node_modules/@vscode/spdlog; the real package is lib/vscode/node_modules/@vscode/spdlog.
const REAL_PACKAGE = path.join(__dirname, '..', '..', '..', '..', 'node_modules', '@vscode', 'spdlog');

// spdlog's level numbers (trace 0 … critical 5, off 6) and the names its "%l" pattern flag prints.
const LEVEL_NAMES = ['trace', 'debug', 'info', 'warning', 'error', 'critical', 'off'];
const OFF = 6;
const DEFAULT_LEVEL = 2;

function loadCompiledAddon() {
  try {
    return require(REAL_PACKAGE);
  } catch {
    return undefined;
  }
}

function checkLevel(level) {
  if (!Number.isInteger(level) || level < 0 || level > OFF) throw new Error('Invalid level');
  return level;
}

const pad = (value, width) => String(value).padStart(width, '0');

// The one pattern VS Code sets, "%Y-%m-%d %H:%M:%S.%e [%l] %v", in local time as spdlog prints it.
function formatLine(level, message) {
  const now = new Date();
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1, 2)}-${pad(now.getDate(), 2)}`;
  const time = `${pad(now.getHours(), 2)}:${pad(now.getMinutes(), 2)}:${pad(now.getSeconds(), 2)}.${pad(now.getMilliseconds(), 3)}`;
  return `${date} ${time} [${LEVEL_NAMES[level]}] ${message}\n`;
}

// spdlog's rotating file sink: "x.log" becomes "x.1.log", "x.1.log" becomes "x.2.log", … keeping maxFiles old files.
function rotatedName(filename, index) {
  if (index === 0) return filename;
  const extension = path.extname(filename);
  return `${filename.slice(0, filename.length - extension.length)}.${index}${extension}`;
}

function createJavaScriptSpdlog() {
  let globalLevel = DEFAULT_LEVEL;

  class Logger {
    constructor(loggerType, name, filename, maxFileSize, maxFiles) {
      if (loggerType !== 'rotating' && loggerType !== 'rotating_async') {
        throw new Error(`This spdlog stand-in only writes files, not "${loggerType}"`);
      }
      this.filename = filename;
      this.maxFileSize = maxFileSize;
      this.maxFiles = maxFiles;
      this.level = globalLevel;
      this.formatted = true;
      this.fd = fs.openSync(filename, 'a');
      this.size = fs.fstatSync(this.fd).size;
    }

    write(level, message) {
      if (this.fd === undefined || level < this.level) return;
      const text = this.formatted ? formatLine(level, message) : message;
      const bytes = Buffer.byteLength(text);
      if (this.size > 0 && this.size + bytes > this.maxFileSize) this.rotate();
      fs.writeSync(this.fd, text);
      this.size += bytes;
    }

    rotate() {
      fs.closeSync(this.fd);
      for (let index = this.maxFiles; index > 0; index--) {
        try {
          fs.renameSync(rotatedName(this.filename, index - 1), rotatedName(this.filename, index));
        } catch {
          // An older file that was never written: nothing to shift.
        }
      }
      this.fd = fs.openSync(this.filename, 'w');
      this.size = 0;
    }

    trace(message) { this.write(0, message); }
    debug(message) { this.write(1, message); }
    info(message) { this.write(2, message); }
    warn(message) { this.write(3, message); }
    error(message) { this.write(4, message); }
    critical(message) { this.write(5, message); }
    getLevel() { return this.level; }
    setLevel(level) { this.level = checkLevel(level); }
    setPattern() { this.formatted = true; }
    // spdlog's formatter-less output is the bare message; VS Code's plain Output channels bring their own newlines.
    clearFormatters() { this.formatted = false; }
    flush() {}
    drop() {
      if (this.fd === undefined) return;
      fs.closeSync(this.fd);
      this.fd = undefined;
    }
  }

  async function createLogger(loggerType, name, filename, maxFileSize, maxFiles) {
    await fs.promises.mkdir(path.dirname(filename), { recursive: true });
    return new Logger(loggerType, name, filename, maxFileSize, maxFiles);
  }

  return {
    version: 0,
    setLevel(level) { globalLevel = checkLevel(level); },
    setFlushOn(level) { checkLevel(level); },
    Logger,
    createRotatingLogger: (name, filename, maxFileSize, maxFiles) => createLogger('rotating', name, filename, maxFileSize, maxFiles),
    createAsyncRotatingLogger: (name, filename, maxFileSize, maxFiles) => createLogger('rotating_async', name, filename, maxFileSize, maxFiles),
  };
}

const spdlog = loadCompiledAddon() ?? createJavaScriptSpdlog();
// One `exports.name =` line per export: VS Code loads this with ESM import(), which sees only the names of a
// CommonJS module that it can read off such assignments, not a whole module.exports object.
exports.version = spdlog.version;
exports.setLevel = spdlog.setLevel;
exports.setFlushOn = spdlog.setFlushOn;
exports.Logger = spdlog.Logger;
exports.createRotatingLogger = spdlog.createRotatingLogger;
exports.createAsyncRotatingLogger = spdlog.createAsyncRotatingLogger;
