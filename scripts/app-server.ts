// The reference server with the built app (`--serve-app`) on a free port, for the measuring scripts (Lighthouse, page
// traces): its URL once it listens, and a stop that ends its whole process group (it runs under npx and tsx, whose
// output pipes would otherwise keep the script alive).
import { spawn } from 'node:child_process'

export const startAppServer = async (dataDir: string, appDir?: string) => {
  const child = spawn('npx', ['tsx', 'server/main.ts', '--serve-app'], {
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, ...(appDir ? { APP_DIR: appDir } : {}) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const m = output.match(/http:\/\/(?:127\.0\.0\.1|localhost):(\d+)/)
      if (m && Number(m[1]) > 0) resolve(`http://127.0.0.1:${m[1]}/cloud/phone/web/`)
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)))
  })
  return { url, stop: () => process.kill(-child.pid!, 'SIGTERM') }
}
