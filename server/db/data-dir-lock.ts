// One server per PGlite data dir: two processes on the same embedded database would corrupt it. The lock file holds
// the owner's pid; a lock whose process is gone is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const LOCK_FILE = 'server.lock'

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Takes the data dir's lock; returns its release. Throws when a live process holds it. */
export const lockDataDir = (dataDir: string): (() => void) => {
  const file = join(dataDir, LOCK_FILE)
  const token = `${process.pid}:${Math.random().toString(36).slice(2)}`
  try {
    writeFileSync(file, token, { flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const holder = Number(readFileSync(file, 'utf8').split(':')[0])
    if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
      throw new Error(`数据目录 ${dataDir} 正被另一个服务器进程使用（pid ${holder}）`)
    }
    writeFileSync(file, token)
  }
  return () => {
    try {
      if (readFileSync(file, 'utf8') === token) rmSync(file)
    } catch {
      // already gone
    }
  }
}
